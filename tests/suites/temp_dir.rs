//! A fresh, empty directory per test under the system's temporary directory, named with the
//! test binary's process id and a counter, removed when it is dropped (passed or failed).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

static DIRECTORIES: AtomicUsize = AtomicUsize::new(0);

/// A fresh, empty directory, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A new directory whose name ends in `tag`.
    pub fn new(tag: &str) -> Self {
        let number = DIRECTORIES.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "agent-interface-{}-{number}-{tag}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("a temporary directory");
        Self(path)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A name inside the directory.
    #[allow(dead_code)] // Not every test binary joins names.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
