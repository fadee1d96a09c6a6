//! What this replica does with the other replicas' messages: their changes reach its listeners,
//! sessions ended elsewhere end here, changes to sessions are applied, and the client's answers and
//! cancellations reach the requests running here.

use super::endpoint::Endpoint;
use super::fleet::{Message, Receiver, change_of, every_list};
use crate::protocol::jsonrpc::{Incoming, RequestId};
use futures_util::future::BoxFuture;

impl Receiver for Endpoint {
    fn receive(&self, message: Message) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            if let Some(change) = change_of(&message) {
                self.core.notifier.deliver_from_fleet(change);
                return;
            }
            match message {
                Message::SessionEnded { session, .. } => {
                    if self.sessions.end_here(&session) {
                        tracing::debug!(session, "a session ended on another replica");
                    }
                }
                Message::SessionChanged {
                    session,
                    change: Some(change),
                } => self.sessions.apply(&session, &change),
                Message::SessionChanged {
                    session,
                    change: None,
                } => self.sessions.reload(&session).await,
                Message::ClientResponse { session, line } => {
                    let (Some(held), Ok(Incoming::Response(response))) =
                        (self.sessions.held(&session), Incoming::parse(&line))
                    else {
                        return;
                    };
                    held.session.client_requests().complete(response);
                }
                Message::Cancelled { session, request } => {
                    let (Some(held), Ok(id)) = (
                        self.sessions.held(&session),
                        serde_json::from_value::<RequestId>(request),
                    ) else {
                        return;
                    };
                    held.session.cancel(&id);
                }
                Message::ListChanged { .. }
                | Message::ResourceUpdated { .. }
                | Message::SessionEndApplied { .. } => {}
            }
        })
    }

    fn reconnected(&self) {
        tracing::info!("the fleet bus is back; announcing every list as changed");
        for change in every_list() {
            self.core.notifier.deliver_from_fleet(change);
        }
    }
}
