// What floe says after a job action, in its own words; the OLake UI's message (untrusted, sanitized by
// whoever prints it) is kept as the detail: "Cancel requested for job 46 (mysql_orders_2)".
export type ActionDone = 'pause' | 'resume' | 'cancel';

function job(id: number, name: string | undefined): string {
  return name === undefined ? `job ${id}` : `job ${id} (${name})`;
}

export function actionDone(action: ActionDone, id: number, name?: string): string {
  if (action === 'cancel') return `Cancel requested for ${job(id, name)}`;
  return `${action === 'pause' ? 'Paused' : 'Resumed'} the schedule of ${job(id, name)}`;
}

/** The server's own message, as a detail after floe's words ('' when it said nothing). */
export function serverSaid(message: string): string {
  const said = message.trim();
  return said === '' ? '' : `the OLake UI said: ${said}`;
}
