//! Run-record files on disk, plain (`.csv`) or gzip-compressed (`.csv.gz`).
//!
//! **Writing.** The output path's extension decides: a path ending in `.gz` is written as a
//! sequence of gzip members (RFC 1952 allows any number, and `gzip -d`, `zcat` and
//! Python's `gzip` read them as one stream). The runner appends one member per flush window
//! ([`RowSink::append`]), so a file cut anywhere loses at most its last, torn member.
//!
//! **Reading.** Every reader in sudolab (`run --resume`, `merge`, `summary`, `plot`, `report`)
//! goes through [`open`] or [`read_text`], which recognise gzip by its magic bytes
//! (`1f 8b`) rather than by the name and decode every member (flate2's
//! [`MultiGzDecoder`]). [`complete_members`] is the resume path: it decodes the members one by
//! one and stops before a torn one.
//!
//! Compression is flate2 (MIT OR Apache-2.0) with its pure-Rust backend (miniz_oxide), at
//! the default level 6: experiment rows repeat their puzzle and configuration columns, so
//! results shrink about 7x.

use super::error::{FileAction, FileError, OutputBusy, RecordsError};
use flate2::bufread::GzDecoder;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// The gzip magic bytes (RFC 1952, ID1 and ID2).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether output to `path` is compressed: its name ends in `.gz`.
pub fn is_gzip_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// The name of an output without `.gz` and `.csv`: `results/quick.csv.gz` -> `quick`, the
/// stem of its sidecar, charts and report.
pub fn stem(path: &Path) -> String {
    let mut p = path.to_path_buf();
    if is_gzip_path(&p) {
        p.set_extension("");
    }
    if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")) {
        p.set_extension("");
    }
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "results".into())
}

/// `dir/NAME.csv[.gz]` -> `dir/NAME` + `suffix` (e.g. `.json`, `.html`).
pub fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let name = format!("{}{suffix}", stem(path));
    match path.parent() {
        Some(dir) => dir.join(name),
        None => PathBuf::from(name),
    }
}

/// Opens a record file for reading, decompressing it if it starts with the gzip magic.
pub fn open(path: &Path) -> Result<Box<dyn Read>, FileError> {
    let mut file = File::open(path).map_err(|e| FileError::new(path, FileAction::Open, e))?;
    let mut magic = [0u8; 2];
    let n =
        read_up_to(&mut file, &mut magic).map_err(|e| FileError::new(path, FileAction::Read, e))?;
    let head = std::io::Cursor::new(magic[..n].to_vec());
    let reader = BufReader::with_capacity(1 << 16, head.chain(file));
    Ok(if n == 2 && magic == GZIP_MAGIC {
        Box::new(MultiGzDecoder::new(reader))
    } else {
        Box::new(reader)
    })
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// The whole text of a record file (decompressed). Errors name the file.
pub fn read_text(path: &Path) -> Result<Vec<u8>, FileError> {
    let mut out = Vec::new();
    open(path)?
        .read_to_end(&mut out)
        .map_err(|e| FileError::new(path, FileAction::Decode, e))?;
    Ok(out)
}

/// The decoded text of the complete gzip members at the start of `bytes`, and the byte
/// offset where the last complete member ends (a member cut by a kill, and anything after
/// it, is left out). A file that does not start like gzip gives no member.
pub fn complete_members(bytes: &[u8]) -> (Vec<u8>, usize) {
    let mut text = Vec::new();
    let mut end = 0;
    while end < bytes.len() {
        let rest = &bytes[end..];
        let mut member = GzDecoder::new(rest);
        let mut decoded = Vec::new();
        if member.read_to_end(&mut decoded).is_err() {
            break;
        }
        // The bufread decoder consumes exactly its member: what is left of the slice is the
        // rest of the file.
        let left = member.into_inner().len();
        if left == rest.len() {
            break;
        }
        end += rest.len() - left;
        text.extend_from_slice(&decoded);
    }
    (text, end)
}

/// `data` as one complete gzip member.
pub fn gzip_member(data: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(
        Vec::with_capacity(data.len() / 4 + 64),
        Compression::default(),
    );
    enc.write_all(data).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

/// An output file that rows are appended to, in chunks: written as they are, or as one gzip
/// member per chunk.
pub struct RowSink {
    file: File,
    gzip: bool,
    path: PathBuf,
}

impl RowSink {
    /// `file` is open for appending; `gzip` from [`is_gzip_path`] of `path`.
    pub fn new(file: File, path: &Path) -> RowSink {
        RowSink {
            file,
            gzip: is_gzip_path(path),
            path: path.to_path_buf(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `rows` (whole lines) with one `write` (one member when compressed). Nothing
    /// is written for an empty chunk.
    pub fn append(&mut self, rows: &[u8]) -> Result<(), FileError> {
        if rows.is_empty() {
            return Ok(());
        }
        let result = if self.gzip {
            self.file.write_all(&gzip_member(rows))
        } else {
            self.file.write_all(rows)
        };
        result.map_err(|e| FileError::new(&self.path, FileAction::Write, e))
    }
}

/// How long [`OutputLock::take`] tries a busy lock again before it calls the output busy.
const LOCK_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// An exclusive advisory lock (`flock`) on a run's output, held from before the output is
/// read until the run (its charts and report included) is over: a second `run` on the same
/// output is refused instead of appending the same jobs and tearing lines. The lock is the
/// kernel's, on the output file itself (no lock file to leave behind): it dies with its
/// process, so a run killed by SIGKILL never blocks the `--resume` after it. Outputs with
/// different names (shards) lock different files and run side by side.
#[derive(Debug)]
pub struct OutputLock {
    // Only held: closing the file releases the lock.
    _file: File,
}

impl OutputLock {
    /// Locks `path`, creating it empty if it does not exist (an output without a row is
    /// started over by the runner, so an empty file left by a failed run means nothing). An
    /// existing output is opened read-only, so that a complete one in a read-only checkout is
    /// still reported as complete. A file system without locks gives a warning, not an error:
    /// the run was possible before locks existed.
    pub fn take(path: &Path) -> Result<OutputLock, RecordsError> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .map_err(|e| FileError::new(path, FileAction::Create, e))?,
            Err(e) => return Err(FileError::new(path, FileAction::Open, e).into()),
        };
        // A lock is held for a moment longer than its run: a child the run forked (`git`
        // for the sidecar) holds a copy of the descriptor until it execs, also when the run
        // was killed meanwhile. So a busy lock is tried again for `LOCK_GRACE` before the
        // output is called busy; a run that really holds it holds it for much longer.
        let deadline = std::time::Instant::now() + LOCK_GRACE;
        loop {
            // flock(2) rather than std's File::try_lock, which is newer than our MSRV (1.80).
            // SAFETY: the descriptor is `file`'s, open for the call; no memory is passed.
            let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if locked == 0 {
                break;
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::WouldBlock {
                eprintln!(
                    "sudolab: warning: {}: cannot lock ({e}); a second run on this output \
                     would not be stopped",
                    path.display()
                );
                break;
            }
            if std::time::Instant::now() >= deadline {
                return Err(OutputBusy(path.to_path_buf()).into());
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        Ok(OutputLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_gzip_path(Path::new("r/q.csv.gz")));
        assert!(!is_gzip_path(Path::new("r/q.csv")));
        assert_eq!(stem(Path::new("r/q.csv.gz")), "q");
        assert_eq!(stem(Path::new("r/q.csv")), "q");
        assert_eq!(stem(Path::new("q.gz")), "q");
        assert_eq!(stem(Path::new("q.tsv")), "q.tsv");
        assert_eq!(
            sibling(Path::new("r/q.csv.gz"), ".json"),
            PathBuf::from("r/q.json")
        );
        assert_eq!(
            sibling(Path::new("q.csv"), ".html"),
            PathBuf::from("q.html")
        );
    }

    #[test]
    fn members_are_read_as_one_stream_and_a_torn_one_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.csv.gz");
        let chunks: [&[u8]; 3] = [b"a,b\n", b"1,2\n3,4\n", b"5,6\n"];
        let mut sink = RowSink::new(File::create(&path).unwrap(), &path);
        for c in chunks {
            sink.append(c).unwrap();
        }
        sink.append(b"").unwrap();
        drop(sink);
        assert_eq!(read_text(&path).unwrap(), b"a,b\n1,2\n3,4\n5,6\n");
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(
            complete_members(&bytes),
            (read_text(&path).unwrap(), bytes.len())
        );
        // Cut anywhere inside the last member: the first two remain.
        let first_two = bytes.len() - gzip_member(chunks[2]).len();
        for cut in [first_two, first_two + 1, first_two + 10, bytes.len() - 1] {
            let (text, end) = complete_members(&bytes[..cut]);
            assert_eq!((text.as_slice(), end), (&b"a,b\n1,2\n3,4\n"[..], first_two));
        }
        assert_eq!(complete_members(&bytes[..5]), (Vec::new(), 0));
        assert_eq!(complete_members(b"a,b\n"), (Vec::new(), 0));
        // Plain text is read as it is.
        let plain = dir.path().join("p.csv");
        std::fs::write(&plain, b"a,b\n").unwrap();
        assert_eq!(read_text(&plain).unwrap(), b"a,b\n");
        std::fs::write(&plain, b"").unwrap();
        assert_eq!(read_text(&plain).unwrap(), b"");
        // A torn member read as a whole file is an error naming the file.
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        let err = format!("{:#}", read_text(&path).unwrap_err());
        assert!(err.contains("x.csv.gz"), "{err}");
    }
}
