/*
 * The protobuf wire format as an OSM PBF file uses it, read strictly: every length is checked
 * against the bytes it claims, so a corrupt or hostile file fails at once with a reason instead
 * of reading past its end, looping or allocating without bound.
 */

/** Bytes that are not the message they should be; the PBF reader adds the file and the offset. */
export class PbfFormatError extends Error {}

const EMPTY = Buffer.alloc(0);
const TWO_TO_63 = 2 ** 63;
const TWO_TO_64 = 2 ** 64;

/** Reads one message field by field: next() moves to the field, whose value is in `number` or `bytes` by its wire type. */
export class ProtobufReader {
  field = 0;
  wire = 0;
  /** The value of a varint field (wire type 0), as an unsigned number. */
  number = 0;
  /** The value of a length-delimited field (wire type 2): a view of the message's bytes. */
  bytes: Buffer = EMPTY;
  private pos = 0;

  constructor(private readonly buffer: Buffer) {}

  get done(): boolean {
    return this.pos >= this.buffer.length;
  }

  next(): boolean {
    if (this.done) return false;
    const key = this.varint();
    this.field = Math.floor(key / 8);
    this.wire = key % 8;
    if (this.field === 0) throw new PbfFormatError("a field numbered 0");
    if (this.wire === 0) this.number = this.varint();
    else if (this.wire === 2) this.bytes = this.take(this.varint());
    else if (this.wire === 1) this.take(8);
    else if (this.wire === 5) this.take(4);
    else throw new PbfFormatError(`a field of unknown wire type ${this.wire}`);
    return true;
  }

  /** The next varint, unsigned (exact up to 2^53, which every id, coordinate and timestamp of OSM stays under). */
  varint(): number {
    let result = 0;
    let factor = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.buffer.length) throw new PbfFormatError("a number runs past the end of its message");
      const byte = this.buffer[this.pos++]!;
      result += (byte & 0x7f) * factor;
      if (byte < 0x80) return result;
      factor *= 128;
    }
    throw new PbfFormatError("a number longer than 10 bytes");
  }

  private take(length: number): Buffer {
    if (length > this.buffer.length - this.pos) throw new PbfFormatError(`a field of ${length} bytes runs past the end of its message`);
    const bytes = this.buffer.subarray(this.pos, this.pos + length);
    this.pos += length;
    return bytes;
  }
}

/** An int64 field's value: a negative one is written as its 64-bit two's complement. */
export function int64(unsigned: number): number {
  return unsigned >= TWO_TO_63 ? unsigned - TWO_TO_64 : unsigned;
}

/** A sint64/sint32 field's value (zigzag: 0, -1, 1, -2 ... are written 0, 1, 2, 3 ...). */
export function zigzag(unsigned: number): number {
  return unsigned % 2 === 0 ? unsigned / 2 : -(unsigned + 1) / 2;
}

/** Appends a repeated varint field's values, packed (one length-delimited run) or not (one per field). */
export function appendVarints(reader: ProtobufReader, values: number[], decode: (unsigned: number) => number = (n) => n): void {
  if (reader.wire === 0) {
    values.push(decode(reader.number));
    return;
  }
  if (reader.wire !== 2) throw new PbfFormatError(`field ${reader.field} should hold numbers`);
  const packed = new ProtobufReader(reader.bytes);
  while (!packed.done) values.push(decode(packed.varint()));
}

/** Delta-coded values (each written as the difference from the one before) made whole. */
export function undelta(deltas: readonly number[]): number[] {
  let value = 0;
  return deltas.map((delta) => (value += delta));
}

export function expectWire(reader: ProtobufReader, wire: 0 | 2, what: string): void {
  if (reader.wire !== wire) throw new PbfFormatError(`${what} (field ${reader.field}) is not ${wire === 0 ? "a number" : "a length-delimited value"}`);
}
