//! A tokio host that serves payload channels over a real WebSocket on loopback, admitting peers
//! the way the TypeScript `WsTransport` does, and a client that talks to it as that peer would.
//!
//! Run, in `hosted/`: `cargo run --example ws_carrier --features transport-runtime,session,serde`.
//! It exits non-zero on any failed check and gives up after 20 seconds.
//!
//! What it shows, in order:
//! 1. Admission before the upgrade, with `admit_upgrade` inside tungstenite's `accept_hdr_async`
//!    callback: a wrong token gets `401 Unauthorized` and a foreign or non-ASCII `Origin`
//!    `403 Forbidden origin`, as HTTP answers rather than an upgrade and a close.
//! 2. The token presented as the first subprotocol (`token_subprotocols`), as a browser does,
//!    and never echoed: the
//!    server answers the named protocol offered after it.
//! 3. A client whose sender used up seq 0 and 1 before it connected (the TypeScript transport
//!    numbers frames per transport, not per connection): the server's freshly registered channel
//!    takes its first frame as the base.
//! 4. Session events carried as channel events, a binary frame, and an undeclared event answered
//!    with the peer's `{"type":"protocol_error"}` message without stalling the channel.

use std::error::Error;
use std::time::{Duration, Instant};

// One module per task: admission in the handshake, frames on the channels.
use agent_interface::runtime::transport::admission::{
    TransportAdmission, TransportAdmissionConfig, UpgradeAllowList, UpgradeRequest, admit_upgrade,
    resolve_stated_admission, token_subprotocols, url_with_token,
};
use agent_interface::runtime::transport::channels::{
    ChannelDescriptor, ChannelName, ChannelResumePoint, DeliveredBody, GapPolicy,
    PayloadChannelRegistry, ProtocolErrorMessage,
};
use agent_interface::session::events::SessionEvent;
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::{HeaderValue, StatusCode, header};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{WebSocketStream, accept_hdr_async, connect_async};

type Result<T> = core::result::Result<T, Box<dyn Error + Send + Sync>>;

const TOKEN: &str = "d7c1e0f4-example-token";
/// Frames a channel holds ahead of a gap.
const PENDING: usize = 8;

fn descriptor() -> Result<ChannelDescriptor> {
    let name = ChannelName::new("session")?;
    Ok(ChannelDescriptor::new(name, ["session_event", "ack"]).with_binary(true))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    tokio::time::timeout(Duration::from_secs(20), run()).await?
}

async fn run() -> Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    // A token the host was given: no RNG is needed to resolve it.
    let config = TransportAdmissionConfig {
        token: Some(TOKEN.into()),
        ..TransportAdmissionConfig::default()
    };
    let admission = resolve_stated_admission(config)?;
    let server = tokio::spawn(serve(listener, admission));

    // 1. Refused before the upgrade, with the reference's statuses.
    let url = format!("ws://{addr}/ws");
    // The client's side of admission: `url_with_token` writes `?token=` as a browser does.
    let with_token = url_with_token(&url, TOKEN)?;
    expect_status(url_with_token(&url, "wrong")?.into_client_request()?, 401).await?;
    let mut foreign = with_token.as_str().into_client_request()?;
    let origin = HeaderValue::from_static("https://evil.example");
    foreign.headers_mut().insert(header::ORIGIN, origin);
    expect_status(foreign, 403).await?;
    // A non-ASCII `Origin` is refused too, never read as absent.
    let mut unreadable = with_token.as_str().into_client_request()?;
    let origin = HeaderValue::from_bytes("https://\u{e9}vil.example".as_bytes())?;
    unreadable.headers_mut().insert(header::ORIGIN, origin);
    expect_status(unreadable, 403).await?;

    // 2. The token as the first subprotocol, a named protocol after it.
    let mut request = url.into_client_request()?;
    let offered = HeaderValue::from_str(&token_subprotocols(TOKEN, "agent.v1")?.join(", "))?;
    request
        .headers_mut()
        .insert(header::SEC_WEBSOCKET_PROTOCOL, offered);
    let (ws, response) = connect_async(request).await?;
    let answered = response.headers().get(header::SEC_WEBSOCKET_PROTOCOL);
    check(
        answered == Some(&HeaderValue::from_static("agent.v1")),
        "the token is not echoed",
    )?;
    println!("client: admitted, subprotocol agent.v1");
    let acks = client(ws).await?;
    check(acks == [0, 1, 2], "one ack per delivered frame, in order")?;

    let events = server.await??;
    check(
        events
            == [
                SessionEvent::UserMessage("hello".into()),
                SessionEvent::TextDelta("Hi there".into()),
            ],
        "the server read both session events",
    )?;
    println!(
        "done: {} session events and 1 binary frame crossed",
        events.len()
    );
    Ok(())
}

fn check(holds: bool, what: &str) -> Result<()> {
    if holds {
        Ok(())
    } else {
        Err(format!("check failed: {what}").into())
    }
}

async fn expect_status(request: Request, status: u16) -> Result<()> {
    match connect_async(request).await {
        Err(WsError::Http(response)) if response.status().as_u16() == status => {
            println!("client: refused with {}", response.status());
            Ok(())
        }
        other => Err(format!("expected HTTP {status}, got {:?}", other.map(|_| ())).into()),
    }
}

/// The client, as the TypeScript peer behaves: its sequence already at 2 when it connects.
async fn client(mut ws: WebSocketStream<impl Carrier>) -> Result<Vec<u32>> {
    let mut channels = PayloadChannelRegistry::<PENDING>::new();
    let resume = ChannelResumePoint {
        next_send: 2,
        next_receive: 0,
    };
    let channel = channels.register_resuming(descriptor()?, resume)?;
    let events = [
        SessionEvent::UserMessage("hello".into()),
        SessionEvent::TextDelta("Hi there".into()),
    ];
    for event in &events {
        let payload = serde_json::to_value(event)?;
        let frame = channels.send_event(&channel, "session_event", &payload)?;
        ws.send(Message::binary(frame)).await?;
    }
    ws.send(Message::binary(
        channels.send_binary(&channel, b"\x00\x01\xfe\xff")?,
    ))
    .await?;
    // An event the server's channel did not declare, from a sender that declares it.
    let mut rogue = PayloadChannelRegistry::<PENDING>::new();
    let shell = ChannelDescriptor::new(ChannelName::new("session")?, ["shell"]);
    let resume = ChannelResumePoint {
        next_send: 5,
        next_receive: 0,
    };
    let shell_channel = rogue.register_resuming(shell, resume)?;
    let undeclared = rogue.send_event(&shell_channel, "shell", &serde_json::json!({}))?;
    ws.send(Message::binary(undeclared)).await?;

    let (mut acks, mut refusals) = (Vec::new(), Vec::new());
    while acks.len() < 3 || refusals.is_empty() {
        match ws.next().await.ok_or("the server hung up")?? {
            Message::Binary(frame) => {
                for item in channels.receive(frame, now_ms())? {
                    if let DeliveredBody::Event { payload, .. } = item?.body {
                        acks.push(serde_json::from_value::<u32>(payload["seq"].clone())? - 2);
                    }
                }
            }
            Message::Text(text) => {
                let refusal: ProtocolErrorMessage = serde_json::from_str(&text)?;
                println!("client: the server refused a frame: {}", refusal.message);
                refusals.push(refusal);
            }
            _ => {}
        }
    }
    check(
        refusals[0].message == "Channel \"session\" did not declare event \"shell\"",
        "the refusal in the reference's words",
    )?;
    ws.close(None).await?;
    Ok(acks)
}

/// The host's clock, in milliseconds since the example started: the crate reads none itself.
fn now_ms() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let start = START.get_or_init(Instant::now);
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// What a WebSocket runs over here.
trait Carrier: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin {}
impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin> Carrier for T {}

/// Serves connections until one has been upgraded and closed; answers the session events it read.
async fn serve(listener: TcpListener, admission: TransportAdmission) -> Result<Vec<SessionEvent>> {
    loop {
        let (stream, _) = listener.accept().await?;
        if let Some(ws) = upgrade(stream, &admission).await {
            return session(ws).await;
        }
    }
}

/// The admission decision, taken in the handshake callback so a refusal is an HTTP answer.
#[expect(
    clippy::result_large_err,
    reason = "tungstenite's handshake callback returns its error response by value"
)]
async fn upgrade(
    stream: TcpStream,
    admission: &TransportAdmission,
) -> Option<WebSocketStream<TcpStream>> {
    let decide = |request: &Request, mut response: Response| {
        // The request-target and every header line as raw bytes: the crate refuses a header it
        // cannot read (a non-ASCII `Origin` is a 403, as the TypeScript transport answers).
        let target = request
            .uri()
            .path_and_query()
            .map_or("/", |target| target.as_str());
        let headers = request
            .headers()
            .iter()
            .map(|(name, value)| (name, value.as_bytes()));
        let upgrade = UpgradeRequest::new(target).headers(headers);
        match admit_upgrade(admission, &upgrade, &UpgradeAllowList::loopback()) {
            Ok(accepted) => {
                if let Some(protocol) = accepted.subprotocol().and_then(|p| p.parse().ok()) {
                    response
                        .headers_mut()
                        .insert(header::SEC_WEBSOCKET_PROTOCOL, protocol);
                }
                Ok(response)
            }
            Err(refusal) => {
                let mut answer = ErrorResponse::new(Some(refusal.to_string()));
                *answer.status_mut() =
                    StatusCode::from_u16(refusal.status()).unwrap_or(StatusCode::FORBIDDEN);
                println!(
                    "server: refused the upgrade: {} {refusal}",
                    refusal.status()
                );
                Err(answer)
            }
        }
    };
    accept_hdr_async(stream, decide).await.ok()
}

/// One admitted connection: a freshly registered channel, whose first frame sets the base
/// whatever seq the peer's sender has reached; a frame missing for two seconds becomes a gap.
async fn session(mut ws: WebSocketStream<TcpStream>) -> Result<Vec<SessionEvent>> {
    let gaps = GapPolicy::new().with_deadline_ms(2_000);
    let mut channels = PayloadChannelRegistry::<PENDING>::new().with_gap_policy(gaps);
    let channel = channels.register(descriptor()?)?;
    let mut events = Vec::new();
    while let Some(message) = ws.next().await {
        let Message::Binary(frame) = message? else {
            continue;
        };
        // Each delivered frame is acked; anything else is answered in the reference server's
        // words, `{"type":"protocol_error","message":…}`.
        let mut answers = Vec::new();
        match channels.receive(frame, now_ms()) {
            Ok(delivery) => {
                for item in delivery {
                    match item {
                        Ok(delivered) => {
                            if let DeliveredBody::Event { payload, .. } = delivered.body {
                                events.push(serde_json::from_value(payload)?);
                            }
                            answers.push(Ok(delivered.seq));
                        }
                        Err(not_delivered) => answers.push(Err(not_delivered.to_protocol_error())),
                    }
                }
            }
            Err(refusal) => answers.push(Err(refusal.to_protocol_error())),
        }
        for answer in answers {
            let message = match answer {
                Ok(seq) => {
                    let ack = serde_json::json!({ "seq": seq });
                    Message::binary(channels.send_event(&channel, "ack", &ack)?)
                }
                // Its wire JSON, the serde form's bytes, with or without the `serde` feature.
                Err(refusal) => Message::text(refusal.to_json()),
            };
            ws.send(message).await?;
        }
    }
    Ok(events)
}
