"""The names LTI 1.3 gives its claims, messages, roles and scopes (1EdTech's URIs)."""

from __future__ import annotations

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = LTI + "message_type"
VERSION = LTI + "version"
DEPLOYMENT_ID = LTI + "deployment_id"
TARGET_LINK_URI = LTI + "target_link_uri"
RESOURCE_LINK = LTI + "resource_link"
ROLES = LTI + "roles"
CONTEXT = LTI + "context"
CUSTOM = LTI + "custom"
LAUNCH_PRESENTATION = LTI + "launch_presentation"
DEEP_LINKING_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
DL_DATA = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
DL_MESSAGE = "https://purl.imsglobal.org/spec/lti-dl/claim/msg"
AGS_ENDPOINT = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
PLATFORM_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-platform-configuration"

RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest"
DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest"
DEEP_LINKING_RESPONSE = "LtiDeepLinkingResponse"
LTI_VERSION = "1.3.0"

SCOPE_LINEITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCOPE_LINEITEM_READ = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
SCOPE_RESULT_READ = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
SCOPE_SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
SCOPE_NRPS = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
TOOL_SCOPES = (SCOPE_LINEITEM, SCOPE_LINEITEM_READ, SCOPE_RESULT_READ, SCOPE_SCORE, SCOPE_NRPS)

# Context roles (the membership vocabulary), with the short forms LTI 1.3 allows. A role the
# judge has no place for (Mentor, say) gives no membership; institution and system roles
# (Administrator of the whole LMS) never make anyone a judge admin.
MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
SUB_ROLE = "http://purl.imsglobal.org/vocab/lis/v2/membership/"  # .../membership/Instructor#TeachingAssistant
TEACHING = frozenset({"Instructor", "ContentDeveloper", "Administrator", "TeachingAssistant"})
LEARNING = frozenset({"Learner"})


def context_role_names(roles: object) -> set[str]:
    """The short names of the context roles among ``roles`` (sub-roles count as their parent:
    membership/Instructor#TeachingAssistant is an Instructor)."""
    names: set[str] = set()
    if not isinstance(roles, list):
        return names
    for role in roles:
        if not isinstance(role, str):
            continue
        if role.startswith(MEMBERSHIP):
            role = role[len(MEMBERSHIP):]
        elif role.startswith(SUB_ROLE):
            role = role[len(SUB_ROLE):]
        elif "/" in role or ":" in role:
            continue  # an institution or system role, or one of another vocabulary
        names.add(role.split("#", 1)[0])
    return names


def teaches(roles: object) -> bool | None:
    """True for an instructor of the context, False for a learner, None for neither."""
    names = context_role_names(roles)
    if names & TEACHING:
        return True
    if names & LEARNING:
        return False
    return None
