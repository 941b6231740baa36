//! With `session-protocol`, the resume buffer is reachable.
use agent_interface::runtime::session_protocol::{ResumeBuffer, ResumeLimits};

fn main() {
    let mut buffer = ResumeBuffer::new(ResumeLimits::DEFAULT);
    assert_eq!(buffer.append("frame", 5), 1);
}
