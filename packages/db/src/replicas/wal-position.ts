/**
 * A position in PostgreSQL's write-ahead log, as pg_current_wal_insert_lsn() and
 * pg_last_wal_replay_lsn() name it in text ("16/B374D848": the high and low 32 bits in hex), read
 * as one number so positions compare with < and >=.
 */
export type WalPosition = bigint;

const WAL_POSITION_TEXT = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

export function parseWalPosition(text: string): WalPosition {
  const match = WAL_POSITION_TEXT.exec(text.trim());
  if (!match) throw new Error(`not a write-ahead log position: "${text}"`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}
