//! With `transport-runtime`, the runtime and the family it implements are reachable.
use agent_interface::runtime::transport::{InMemoryService, TransportRegistry};
use agent_interface::transport::config::TransportLifecycleRegistryView;

fn main() {
    let registry = TransportRegistry::without_settings();
    let _ = core::mem::size_of::<InMemoryService<()>>();
    assert!(registry.names().is_empty());
    let _ = <TransportRegistry<'_> as TransportLifecycleRegistryView>::start_all;
}
