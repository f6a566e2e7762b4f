// Rust source-attribution target (release build): calls made through std's
// File and Stdout must be attributed to this file, past std's frames.
use std::io::{Read, Write};

#[inline(never)]
fn run(p: &str) {
    let mut f = std::fs::File::open(p).unwrap(); // SITE:open
    let mut b = [0u8; 16];
    let _ = f.read(&mut b); // SITE:read
    std::io::stdout().write_all(b"x\n").unwrap(); // SITE:write
}

fn main() {
    run(&std::env::args().nth(1).unwrap_or_else(|| "/etc/hostname".into()));
}
