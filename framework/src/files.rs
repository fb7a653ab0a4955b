//! Files that must not be lost or half-written: atomic replacement and
//! advisory locks, shared by checkpoints, result files and caches.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Replaces `path` with `bytes` through a temporary file in the same
/// directory (so the rename stays on one file system), then renames it
/// over `path`: a reader sees the old file or the new one, never part of
/// one. On failure the temporary file is removed and `path` is untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temporary_beside(path);
    let written = File::create(&tmp).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// A temporary name beside `path`, unique to this process
/// (`name.<pid>.tmp`), so two processes never write the same one.
pub fn temporary_beside(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

/// Why a lock was not taken.
#[derive(Debug)]
pub enum LockError {
    /// Another process (or handle) holds it.
    Held,
    /// The lock file could not be opened.
    Io(std::io::Error),
}

/// Opens (creating if missing) `path` and takes an exclusive advisory lock
/// on it without waiting; the lock lasts as long as the returned file.
pub fn try_lock(path: &Path) -> Result<File, LockError> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(LockError::Io)?;
    lock_file(&file)?;
    Ok(file)
}

/// Takes an exclusive advisory lock on an open file without waiting.
pub fn lock_file(file: &File) -> Result<(), LockError> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(LockError::Held),
        Err(std::fs::TryLockError::Error(e)) => Err(LockError::Io(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_same_file_is_refused_until_the_first_is_dropped() {
        let dir = std::env::temp_dir().join(format!("frontier-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.lock");
        let first = try_lock(&path).unwrap();
        assert!(matches!(try_lock(&path), Err(LockError::Held)));
        drop(first);
        assert!(try_lock(&path).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_atomic_write_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("frontier-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A directory where the file should go: the rename fails.
        let path = dir.join("taken");
        std::fs::create_dir_all(path.join("inside")).unwrap();
        assert!(write_atomic(&path, b"data").is_err());
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "only the directory remains");
        let ok = dir.join("ok");
        write_atomic(&ok, b"data").unwrap();
        assert_eq!(std::fs::read(&ok).unwrap(), b"data");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
