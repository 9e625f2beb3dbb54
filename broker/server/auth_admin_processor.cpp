#include "broker/server/auth_admin_processor.h"

#include "broker/acl/access_gate.h"
#include "broker/acl/acl_signer.h"
#include "broker/acl/auth_store.h"
#include "broker/common/json.h"
#include "broker/remoting/net/remoting_dispatcher.h"
#include "broker/remoting/remoting_codes.h"

#include <spdlog/spdlog.h>

namespace mqdesk::server {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

RemotingCommand answer(const RemotingCommand &request, int32_t code, std::string remark = {})
{
    return RemotingCommand::createResponse(request, code, std::move(remark));
}

RemotingCommand withJsonBody(const RemotingCommand &request, const common::JsonValue &body)
{
    RemotingCommand response = answer(request, ResponseCode::kSuccess);
    const std::string json = common::toJsonCompact(body);
    response.body.assign(json.begin(), json.end());
    return response;
}

std::string field(const RemotingCommand &request, std::string_view name)
{
    const std::string *value = request.extFields.find(name);
    return value ? *value : std::string();
}

bool isBlank(const std::string &text)
{
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

// The body as JSON; nullopt when absent or not JSON.
std::optional<common::JsonValue> bodyJson(const RemotingCommand &request)
{
    if (request.body.empty())
        return std::nullopt;
    common::JsonParseResult parsed =
        common::parseJson(std::string_view(reinterpret_cast<const char *>(request.body.data()), request.body.size()));
    if (!parsed.ok())
        return std::nullopt;
    return std::move(parsed.value);
}

} // namespace

void AuthAdminProcessor::process(const remoting::RequestContext &context, RemotingCommand request,
                                 remoting::Responder respond)
{
    RemotingCommand response;
    switch (request.code) {
    case RequestCode::kAuthCreateUser: response = createUser(request); break;
    case RequestCode::kAuthUpdateUser: response = updateUser(request); break;
    case RequestCode::kAuthDeleteUser: response = deleteUser(request); break;
    case RequestCode::kAuthGetUser: response = getUser(request); break;
    case RequestCode::kAuthListUser: response = listUsers(request); break;
    case RequestCode::kAuthCreateAcl:
    case RequestCode::kAuthUpdateAcl: response = createAcl(request); break;
    case RequestCode::kAuthDeleteAcl: response = deleteAcl(request); break;
    case RequestCode::kAuthGetAcl: response = getAcl(request); break;
    case RequestCode::kAuthListAcl: response = listAcls(request); break;
    default:
        response = remoting::refuseUnsupportedRequest(request, context.peerAddress(), "not served by this broker");
    }
    const bool changes = request.code == RequestCode::kAuthCreateUser || request.code == RequestCode::kAuthUpdateUser
                         || request.code == RequestCode::kAuthDeleteUser || request.code == RequestCode::kAuthCreateAcl
                         || request.code == RequestCode::kAuthUpdateAcl || request.code == RequestCode::kAuthDeleteAcl;
    if (changes) {
        const std::string *caller = request.extFields.find(acl::kAccessKeyField);
        spdlog::info("broker: {} from {} (user {}): {}", remoting::describeRequestCode(request.code),
                     context.peerAddress(), caller ? *caller : std::string("none"),
                     response.code == ResponseCode::kSuccess ? std::string("done")
                                                             : "refused, " + response.remark.value_or(""));
    }
    respond(std::move(response));
}

RemotingCommand AuthAdminProcessor::createUser(const Command &request)
{
    const std::string username = field(request, "username");
    if (isBlank(username))
        return answer(request, ResponseCode::kInvalidParameter, "The username is blank");
    const std::optional<common::JsonValue> body = bodyJson(request);
    acl::User user;
    std::string error;
    if (!body || !acl::userFromJson(*body, user, error))
        return answer(request, ResponseCode::kSystemError, "The body of user is invalid: " + error);
    user.username = username; // the header wins, as in Java
    const std::string *caller = request.extFields.find(acl::kAccessKeyField);
    if (user.super && caller && !gate_.isSuperUser(caller))
        return answer(request, ResponseCode::kSystemError, "The super user can only be create by super user");
    if (isBlank(user.password))
        return answer(request, ResponseCode::kNoPermission, "password can not be blank");
    if (!store_.createUser(user, error))
        return answer(request, ResponseCode::kNoPermission, error);
    return answer(request, ResponseCode::kSuccess);
}

RemotingCommand AuthAdminProcessor::updateUser(const Command &request)
{
    const std::string username = field(request, "username");
    if (isBlank(username))
        return answer(request, ResponseCode::kInvalidParameter, "The username is blank");
    const std::optional<common::JsonValue> body = bodyJson(request);
    if (!body || !body->isObject())
        return answer(request, ResponseCode::kSystemError, "The body of user is invalid");
    const common::JsonObject &object = body->asObject();
    acl::User given;
    std::string error;
    if (!acl::userFromJson(*body, given, error))
        return answer(request, ResponseCode::kSystemError, "The body of user is invalid: " + error);
    const std::string *caller = request.extFields.find(acl::kAccessKeyField);
    const bool callerIsSuper = !caller || gate_.isSuperUser(caller);
    const bool makesSuper = object.find("userType") && given.super;
    if (makesSuper && !callerIsSuper)
        return answer(request, ResponseCode::kSystemError, "The super user can only be update by super user");
    std::optional<acl::User> user = store_.user(username);
    if (!user)
        return answer(request, ResponseCode::kNoPermission, "The user is not exist");
    if (user->super && !callerIsSuper)
        return answer(request, ResponseCode::kNoPermission, "The super user can only be update by super user");
    // Only what the body names changes (a blank password keeps the old one).
    if (!isBlank(given.password))
        user->password = given.password;
    if (object.find("userType") && !object.find("userType")->isNull())
        user->super = given.super;
    if (object.find("userStatus") && !object.find("userStatus")->isNull())
        user->enabled = given.enabled;
    if (!store_.updateUser(*user, error))
        return answer(request, ResponseCode::kNoPermission, error);
    return answer(request, ResponseCode::kSuccess);
}

RemotingCommand AuthAdminProcessor::deleteUser(const Command &request)
{
    const std::string username = field(request, "username");
    if (isBlank(username))
        return answer(request, ResponseCode::kNoPermission, "username can not be blank");
    const std::optional<acl::User> user = store_.user(username);
    const std::string *caller = request.extFields.find(acl::kAccessKeyField);
    if (user && user->super && caller && !gate_.isSuperUser(caller))
        return answer(request, ResponseCode::kNoPermission, "The super user can only be update by super user");
    std::string error;
    if (!store_.deleteUser(username, error))
        return answer(request, ResponseCode::kSystemError, error);
    return answer(request, ResponseCode::kSuccess);
}

RemotingCommand AuthAdminProcessor::getUser(const Command &request)
{
    const std::string username = field(request, "username");
    if (isBlank(username))
        return answer(request, ResponseCode::kInvalidParameter, "The username is blank");
    const std::optional<acl::User> user = store_.user(username);
    // Java answers an unknown user with success and no body; its UserInfo carries the password.
    return user ? withJsonBody(request, acl::userToJson(*user)) : answer(request, ResponseCode::kSuccess);
}

RemotingCommand AuthAdminProcessor::listUsers(const Command &request)
{
    common::JsonArray users;
    for (const acl::User &user : store_.users(field(request, "filter")))
        users.push_back(acl::userToJson(user));
    // Java sends no body for an empty list; the Dashboard 2.1.0 then fails on a null list. `[]`
    // reads as the same empty list everywhere.
    return withJsonBody(request, common::JsonValue(std::move(users)));
}

RemotingCommand AuthAdminProcessor::createAcl(const Command &request)
{
    const std::optional<common::JsonValue> body = bodyJson(request);
    acl::Acl acl;
    std::string error;
    if (!body)
        return answer(request, ResponseCode::kSystemError, "The body of acl is null");
    if (!acl::aclFromJson(*body, acl, error))
        return answer(request, ResponseCode::kNoPermission, error);
    if (acl.subject.empty())
        acl.subject = field(request, "subject");
    std::erase_if(acl.policies, [](const acl::Policy &policy) { return policy.entries.empty(); });
    if (acl.policies.empty())
        return answer(request, ResponseCode::kNoPermission, "The policies is empty.");
    if (!store_.createAcl(acl, error))
        return answer(request, ResponseCode::kNoPermission, error);
    return answer(request, ResponseCode::kSuccess);
}

RemotingCommand AuthAdminProcessor::deleteAcl(const Command &request)
{
    std::string error;
    if (!store_.deleteAcl(field(request, "subject"), field(request, "policyType"), field(request, "resource"), error))
        return answer(request, ResponseCode::kNoPermission, error);
    return answer(request, ResponseCode::kSuccess);
}

RemotingCommand AuthAdminProcessor::getAcl(const Command &request)
{
    const std::string subject = field(request, "subject");
    if (!subject.starts_with("User:"))
        return answer(request, ResponseCode::kNoPermission, "The subject is null.");
    if (!store_.user(subject.substr(5)))
        return answer(request, ResponseCode::kNoPermission, "The subject is not exist.");
    const std::optional<acl::Acl> acl = store_.acl(subject);
    return acl ? withJsonBody(request, acl::aclToJson(*acl)) : answer(request, ResponseCode::kSuccess);
}

RemotingCommand AuthAdminProcessor::listAcls(const Command &request)
{
    common::JsonArray acls;
    for (const acl::Acl &acl : store_.acls(field(request, "subjectFilter"), field(request, "resourceFilter")))
        acls.push_back(acl::aclToJson(acl));
    return withJsonBody(request, common::JsonValue(std::move(acls))); // `[]` when empty, as for users
}

} // namespace mqdesk::server
