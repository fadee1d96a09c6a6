//! https: the CLI and its gateway reach a server behind TLS when they trust the authority that
//! signed its certificate (here through `SSL_CERT_FILE`, as any program using the platform's
//! certificates), and refuse one whose certificate they cannot verify, naming why. The server is
//! the `bookshop` behind a TLS front of the test's own (a test CA, a certificate for
//! 127.0.0.1, rustls), on loopback.

mod common;

use common::{HttpServer, cli, run_command};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio_rustls::rustls;

/// A test authority and the front's certificate, signed by it.
struct Certificates {
    /// The authority's certificate, PEM, in a file of its own.
    authority: PathBuf,
    /// Another authority's certificate, which did not sign the front's.
    stranger: PathBuf,
    chain: Vec<rustls::pki_types::CertificateDer<'static>>,
    key: rustls::pki_types::PrivateKeyDer<'static>,
    _dir: tempfile::TempDir,
}

fn authority(name: &str) -> rcgen::CertifiedIssuer<'static, rcgen::KeyPair> {
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, name);
    params.key_usages = vec![
        rcgen::KeyUsagePurpose::KeyCertSign,
        rcgen::KeyUsagePurpose::DigitalSignature,
    ];
    rcgen::CertifiedIssuer::self_signed(params, rcgen::KeyPair::generate().unwrap()).unwrap()
}

fn certificates() -> Certificates {
    let dir = tempfile::tempdir().unwrap();
    let ca = authority("mcpwire test authority");
    let server_key = rcgen::KeyPair::generate().unwrap();
    let server = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&server_key, &ca)
        .unwrap();
    let write = |name: &str, pem: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, pem).unwrap();
        path
    };
    Certificates {
        authority: write("authority.pem", ca.pem()),
        stranger: write("stranger.pem", authority("someone else").pem()),
        chain: vec![server.der().clone()],
        key: rustls::pki_types::PrivatePkcs8KeyDer::from(server_key.serialize_der()).into(),
        _dir: dir,
    }
}

/// TLS on 127.0.0.1 in front of a plain HTTP server; stops with its runtime.
struct TlsFront {
    /// `https://127.0.0.1:PORT/mcp`.
    url: String,
    _runtime: tokio::runtime::Runtime,
}

impl TlsFront {
    fn start(certificates: &Certificates, backend: &str) -> Self {
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certificates.chain.clone(), certificates.key.clone_key())
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let backend = backend
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let port = listener.local_addr().unwrap().port();
        runtime.spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let (acceptor, backend) = (acceptor.clone(), backend.clone());
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let Ok(mut plain) = tokio::net::TcpStream::connect(&backend).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
                });
            }
        });
        TlsFront {
            url: format!("https://127.0.0.1:{port}/mcp"),
            _runtime: runtime,
        }
    }
}

/// The CLI with `args`, trusting the authorities in `trusted` (a PEM file) and no others.
fn cli_trusting(trusted: &Path, args: &[&str]) -> common::Run {
    let mut command = cli();
    command
        .args(args)
        .env("SSL_CERT_FILE", trusted)
        .env_remove("SSL_CERT_DIR");
    run_command(
        command,
        format!("mcpwire-cli {args:?} trusting {trusted:?}"),
    )
}

#[test]
fn the_cli_calls_a_server_over_https_on_both_revisions() {
    let certificates = certificates();
    let shop = HttpServer::example("bookshop");
    let front = TlsFront::start(&certificates, &shop.url);
    for era in ["modern", "legacy"] {
        let listed = cli_trusting(
            &certificates.authority,
            &["tools", "--url", &front.url, "--era", era],
        );
        assert_eq!(listed.code(), 0, "[{era}] {}", listed.stderr);
        assert!(
            listed.stdout.contains("order_book"),
            "[{era}] {}",
            listed.stdout
        );
        let called = cli_trusting(
            &certificates.authority,
            &[
                "call",
                "--url",
                &front.url,
                "--era",
                era,
                "add",
                "--args",
                r#"{"a": 2, "b": 3}"#,
            ],
        );
        assert_eq!(called.code(), 0, "[{era}] {}", called.stderr);
        assert!(
            called.stdout.starts_with("5\n"),
            "[{era}] {}",
            called.stdout
        );
    }
}

#[test]
fn a_certificate_no_trusted_authority_signed_is_refused_and_named() {
    let certificates = certificates();
    let shop = HttpServer::example("bookshop");
    let front = TlsFront::start(&certificates, &shop.url);
    let refused = cli_trusting(&certificates.stranger, &["tools", "--url", &front.url]);
    assert_eq!(refused.code(), 4, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("certificate"),
        "the cause is named: {}",
        refused.stderr
    );
    assert!(!refused.stdout.contains("order_book"), "{}", refused.stdout);
}

#[test]
fn the_gateway_fronts_a_backend_over_https() {
    let certificates = certificates();
    let shop = HttpServer::example("bookshop");
    let front = TlsFront::start(&certificates, &shop.url);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("gateway.json");
    let servers = serde_json::json!({"mcpServers": {"shop": {"url": front.url}}});
    std::fs::write(&config, servers.to_string()).unwrap();
    let gateway = format!(
        "{} gateway --config {}",
        env!("CARGO_BIN_EXE_mcpwire-cli"),
        config.display()
    );
    let call = [
        "call",
        "--stdio",
        &gateway,
        "shop_add",
        "--args",
        r#"{"a": 20, "b": 22}"#,
    ];
    let called = cli_trusting(&certificates.authority, &call);
    assert_eq!(called.code(), 0, "{}", called.stderr);
    assert!(called.stdout.starts_with("42\n"), "{}", called.stdout);
    // The same gateway, not trusting the authority: the backend's tools are not there, and its
    // front tells its client nothing of why (the certificate is the gateway's log's business).
    let refused = cli_trusting(&certificates.stranger, &call);
    assert_ne!(refused.code(), 0, "{}", refused.stdout);
    assert!(!refused.stdout.contains("42"), "{}", refused.stdout);
    assert!(
        refused.stderr.contains("Unknown tool: shop_add"),
        "{}",
        refused.stderr
    );
    assert!(
        !refused.stderr.contains("UnknownIssuer"),
        "{}",
        refused.stderr
    );
}
