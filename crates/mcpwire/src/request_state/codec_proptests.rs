//! Property tests of the `requestState` opener: arbitrary tokens never panic and never open,
//! and whatever is sealed opens to the same state, for its own binding only.

use super::codec::{Binding, Refusal, StateCodec};
use super::keys::KeyRing;
use proptest::prelude::*;

fn codec() -> StateCodec {
    StateCodec::new(KeyRing::new([[8u8; 32]]).unwrap(), "server")
}

fn binding<'a>(target: &'a str, arguments: &'a str, principal: Option<&'a str>) -> Binding<'a> {
    Binding {
        method: "tools/call",
        target,
        arguments,
        principal,
    }
}

proptest! {
    #[test]
    fn arbitrary_tokens_never_open(token in ".{0,300}", v2 in "[A-Za-z0-9_-]{0,300}") {
        let codec = codec();
        prop_assert!(codec.open(&token, binding("t", "a", None)).is_err());
        let forged = format!("v2.{v2}");
        let refused = codec.open(&forged, binding("t", "a", None)).unwrap_err();
        prop_assert!(matches!(refused, Refusal::Malformed | Refusal::UnknownKey | Refusal::Seal));
    }

    #[test]
    fn sealed_states_round_trip_for_their_binding_only(
        state in ".{0,400}",
        target in "[a-z_]{1,12}",
        arguments in "[A-Za-z0-9]{1,22}",
        principal in prop::option::of("[a-z]{1,8}"),
    ) {
        let codec = codec();
        let own = binding(&target, &arguments, principal.as_deref());
        let token = codec.seal(own, &state, "call").unwrap();
        let opened = codec.open(&token, own).unwrap();
        prop_assert_eq!(opened.state, state);
        prop_assert_eq!(opened.call_id, "call");
        let other_target = format!("{target}x");
        prop_assert!(codec.open(&token, binding(&other_target, &arguments, principal.as_deref())).is_err());
        prop_assert!(codec.open(&token, binding(&target, &arguments, Some("intruder"))).is_err());
    }

    #[test]
    fn a_flipped_character_never_opens(state in ".{0,64}", at in any::<prop::sample::Index>()) {
        let codec = codec();
        let own = binding("t", "a", None);
        let token = codec.seal(own, &state, "call").unwrap();
        let mut bytes = token.into_bytes();
        let i = 3 + at.index(bytes.len() - 3);
        bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(bytes).unwrap();
        prop_assert!(codec.open(&tampered, own).is_err());
    }
}
