//! Part `goals` of the session turns suite (../../tests/suites/session_turns.rs), run on the
//! Cortex-M3. (Part `frame_decoding` has no image: the decoder of every event frame is larger
//! than the board's flash.)
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/session_turns.rs",
    "session::turns::goals",
    goals::CASES
);
