//! Part `wire` of the reconcile suite (../../tests/suites/reconcile.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/reconcile.rs",
    "reconcile::wire",
    wire::CASES
);
