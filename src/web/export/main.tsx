// The exported HTML file's script (`agentlog show --html`, the dashboard's "Export as HTML"): reads
// the record from the file's JSON data block and draws it with the dashboard's components.
import { render } from 'preact';
import type { SessionRecord } from '../../record/types.js';
import { RecordView } from '../record-view.js';
import '../styles.css';

interface Exported {
  record: SessionRecord;
  name: string | null;
}

const data = document.getElementById('agentlog-record')?.textContent ?? null;
const root = document.getElementById('app');
if (data !== null && root !== null) {
  const { record, name } = JSON.parse(data) as Exported;
  document.title = `${name ?? record.session_id} · agentlog`;
  render(<RecordView record={record} name={name} />, root);
}
