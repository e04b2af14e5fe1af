// Local redaction (seed 003 "Redaction happens on both sides"): every string value one by one, then
// a whole-body check of the serialised bytes. Replacement `[REDACTED:<class>]`, idempotent.
export { type Finding, type RedactionClass, redactionClasses, redactionToken } from './classes.js';
export { redactJson, type RedactJsonResult } from './redact-json.js';
export { redactText, type RedactTextResult } from './redact-text.js';
export { findSecrets } from './find-secrets.js';
