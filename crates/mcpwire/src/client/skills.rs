//! The Skills extension from the client's side: listing a server's skills and getting one. Their
//! files are ordinary resources: read them with [`Client::read_resource`], and check each
//! against the digest and size its skill lists.

use super::client::Client;
use super::error::ClientError;
use crate::protocol::skills::{GET, GetSkillResult, LIST, Skill};
use serde_json::json;

impl Client {
    /// Every skill the server publishes, all pages (the server must offer the Skills
    /// extension).
    ///
    /// # Errors
    ///
    /// `-32601` from a server without skills, or a result that is not a skills list.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// for skill in client.list_skills().await? {
    ///     println!("{}: {}", skill.uri, skill.description().unwrap_or_default());
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn list_skills(&self) -> Result<Vec<Skill>, ClientError> {
        let skills = self.list_all(LIST, "skills").await?;
        skills
            .into_iter()
            .map(|skill| serde_json::from_value(skill).map_err(ClientError::from))
            .collect()
    }

    /// The skill whose `SKILL.md` is at `uri`.
    ///
    /// # Errors
    ///
    /// `-32602` when the server serves no skill there.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let skill = client.get_skill("skill://find-a-book/SKILL.md").await?;
    /// println!("{:?}", skill.resources);
    /// # Ok(()) }
    /// ```
    pub async fn get_skill(&self, uri: &str) -> Result<Skill, ClientError> {
        let result = self.request(GET, json!({ "uri": uri })).await?;
        let result: GetSkillResult = serde_json::from_value(result)?;
        Ok(result.skill)
    }
}
