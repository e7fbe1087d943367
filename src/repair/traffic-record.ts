/** The run record's fields from the run's model traffic (issue 28): every request's host, waits and outcome. */
import type { ModelTraffic } from '../model/index.js';
import type { RunRecord } from '../report/run-record.js';

export function modelTrafficFields(traffic: ModelTraffic | undefined): Pick<RunRecord, 'modelRequests' | 'modelWaitMs'> {
  if (!traffic || traffic.requests.length === 0) return {};
  const waited = traffic.waitedMs();
  return { modelRequests: traffic.requests, ...(waited > 0 ? { modelWaitMs: waited } : {}) };
}
