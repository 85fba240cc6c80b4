/**
 * Ogg pages (RFC 3533) and the FLAC-in-Ogg mapping (https://xiph.org/flac/ogg_mapping.html):
 * a first page holding the mapping header with STREAMINFO, a page with the VORBIS_COMMENT, then
 * one page per FLAC frame whose granule position counts the samples up to the frame's end.
 */
import { oggCrc32 } from './bits';

export const OGG_BOS = 0x02;
export const OGG_EOS = 0x04;

export interface OggPage {
  /** OGG_BOS, OGG_EOS, or 0. */
  flags: number;
  /** Samples up to the end of the page's last packet (−1 for none: not used here). */
  granule: number;
  serial: number;
  sequence: number;
  /** One whole packet (the mapping never splits one across pages here). */
  packet: Uint8Array;
}

/** Bytes of the page that carries a packet of `packetLength` bytes. */
export const oggPageLength = (packetLength: number): number =>
  27 + Math.floor(packetLength / 255) + 1 + packetLength;

/** One page holding one whole packet (at most 255 × 255 − 1 bytes), its CRC filled in. */
export function oggPage(page: OggPage): Uint8Array {
  const length = page.packet.length;
  if (length >= 255 * 255) throw new RangeError('An Ogg page holds at most 65,024 bytes of one packet.');
  const segments = Math.floor(length / 255) + 1;
  const out = new Uint8Array(27 + segments + length);
  const view = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53], 0); // OggS
  out[4] = 0; // version
  out[5] = page.flags;
  view.setUint32(6, page.granule >>> 0, true);
  view.setUint32(10, Math.floor(page.granule / 2 ** 32), true);
  view.setUint32(14, page.serial >>> 0, true);
  view.setUint32(18, page.sequence >>> 0, true);
  // 22–25: CRC, zero while it is computed.
  out[26] = segments;
  for (let i = 0; i < segments - 1; i++) out[27 + i] = 255;
  out[27 + segments - 1] = length % 255;
  out.set(page.packet, 27 + segments);
  view.setUint32(22, oggCrc32(out), true);
  return out;
}

/**
 * The first packet of FLAC in Ogg: 0x7F "FLAC", mapping version 1.0, the number of header packets
 * that follow, then "fLaC" and the STREAMINFO block (with its block header).
 */
export function flacOggFirstPacket(streamInfoBlock: Uint8Array, headerPackets: number): Uint8Array {
  const out = new Uint8Array(13 + streamInfoBlock.length);
  out.set([0x7f, 0x46, 0x4c, 0x41, 0x43, 1, 0, (headerPackets >>> 8) & 0xff, headerPackets & 0xff], 0);
  out.set([0x66, 0x4c, 0x61, 0x43], 9); // fLaC
  out.set(streamInfoBlock, 13);
  return out;
}
