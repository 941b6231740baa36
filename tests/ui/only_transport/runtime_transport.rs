//! With only `transport`, the transport runtime does not exist: the contracts alone pull in
//! neither subtle nor rand_core.
use agent_interface::runtime::transport::TransportRegistry;

fn main() {}
