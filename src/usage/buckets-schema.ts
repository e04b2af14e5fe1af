// The scan cache's schema for usage buckets, apart from buckets.ts: the scan worker builds buckets
// and never validates a cache, so zod stays out of its bundle (its load delays every worker).
import { z } from 'zod';
import { isUsageBuckets, type UsageBuckets } from './buckets.js';

/**
 * The cached buckets' schema. A hand check inside zod: an unchanged home loads every session's rows
 * from the scan cache, and a per-element zod tuple took as long as parsing the JSON itself.
 */
export const usageBucketsSchema = z.custom<UsageBuckets>(isUsageBuckets, { message: 'not usage buckets' });
