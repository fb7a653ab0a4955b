//! A minimal PNG writer for solved grids: 8-bit greyscale, stored (not
//! compressed) deflate blocks, so no image library is needed.

/// Encodes a `width × height` grid (`true` = filled, black) with each cell
/// `scale × scale` pixels, and a one-cell white border.
pub fn encode(width: usize, height: usize, filled: &[bool], scale: usize) -> Vec<u8> {
    let scale = scale.clamp(1, 64);
    let (pw, ph) = ((width + 2) * scale, (height + 2) * scale);
    let mut raw = Vec::with_capacity((pw + 1) * ph);
    for y in 0..ph {
        raw.push(0); // filter: none
        let r = (y / scale).wrapping_sub(1);
        for x in 0..pw {
            let c = (x / scale).wrapping_sub(1);
            let black = r < height && c < width && filled[r * width + c];
            raw.push(if black { 0 } else { 255 });
        }
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::new();
    header.extend_from_slice(&(pw as u32).to_be_bytes());
    header.extend_from_slice(&(ph as u32).to_be_bytes());
    header.extend_from_slice(&[8, 0, 0, 0, 0]); // 8-bit greyscale
    chunk(&mut png, b"IHDR", &header);
    chunk(&mut png, b"IDAT", &zlib_stored(&raw));
    chunk(&mut png, b"IEND", &[]);
    png
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A zlib stream of stored deflate blocks (at most 65535 bytes each).
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x78, 0x01];
    let mut blocks = data.chunks(65_535).peekable();
    if blocks.peek().is_none() {
        out.extend_from_slice(&[1, 0, 0, 0xFF, 0xFF]);
    }
    while let Some(block) = blocks.next() {
        out.push(u8::from(blocks.peek().is_none()));
        let len = block.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    out.extend_from_slice(&(b << 16 | a).to_be_bytes());
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    #[test]
    fn crc_and_adler_match_known_values() {
        // CRC-32 of "IEND" is the constant every PNG ends with.
        assert_eq!(super::crc32(b"IEND"), 0xAE42_6082);
        let z = super::zlib_stored(b"Wikipedia");
        assert_eq!(&z[z.len() - 4..], &0x11E6_0398u32.to_be_bytes());
    }
}
