// Telemetry (grpc-proxy spec §3.3, §7.4 #1 and #8): the bidirectional stream each client keeps
// open. The client's Settings register it with the broker (HEART_BEAT) and are answered, on the
// same stream, with the server's merged Settings — what the SDKs wait for at start. Server
// commands (orphaned-transaction checks, the broker's requests of client_calls.cpp) go out on the
// client's newest stream, and the client's answers to them come back on any of its streams.

#include "broker/common/clock.h"
#include "broker/grpc/message_codec.h"
#include "broker/grpc/messaging_service.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/pop/pop_service.h"
#include "broker/store/config/subscription_group_manager.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <deque>
#include <mutex>

namespace mqdesk::grpc {

namespace {

constexpr int32_t kReceiveBatchSize = 32;

void mergeProducerSettings(v2::Settings &settings)
{
    v2::RetryPolicy &policy = *settings.mutable_backoff_policy();
    policy.set_max_attempts(3);
    v2::ExponentialBackoff &backoff = *policy.mutable_exponential_backoff();
    setMillis(backoff.mutable_initial(), 10);
    setMillis(backoff.mutable_max(), 1000);
    backoff.set_multiplier(2);
    settings.mutable_publishing()->set_max_body_size(4 * 1024 * 1024);
    settings.mutable_publishing()->set_validate_message_type(true);
    settings.mutable_metric()->set_on(false);
}

class TelemetryReactor final : public ::grpc::ServerBidiReactor<v2::TelemetryCommand, v2::TelemetryCommand>
{
public:
    TelemetryReactor(MessagingService &service, ::grpc::CallbackServerContext *context)
        : service_(service), context_(context)
    {
        v2::TelemetryCommand refusal;
        client_ = service_.admit(context, nullptr, *refusal.mutable_status());
        if (!client_) {
            {
                std::lock_guard lock(mutex_);
                closing_ = true;
            }
            enqueue(std::move(refusal));
            return;
        }
        outbox_ = std::make_shared<TelemetryOutbox>([this](v2::TelemetryCommand command) { enqueue(std::move(command)); });
        client_->setTelemetry(outbox_);
        StartRead(&incoming_);
    }

    void OnReadDone(bool ok) override
    {
        if (!ok) {
            // The client half-closed (or went away): finish once what is queued went out.
            std::unique_lock lock(mutex_);
            closing_ = true;
            writeNextLocked(lock);
            return;
        }
        client_->touch(common::wallMillis());
        v2::TelemetryCommand command = std::move(incoming_);
        incoming_.Clear();
        StartRead(&incoming_);
        if (command.has_settings()) {
            // Each Settings names the topics and group the client will use: the ACL sees them.
            if (v2::Status refusal; !service_.admitted(context_, &command, refusal))
                reply(std::move(refusal), std::nullopt);
            else
                onSettings(command.settings());
        }
        // Answers to the broker's requests (client_calls.cpp).
        if (command.has_thread_stack_trace() || command.has_verify_message_result())
            service_.answerFromClient(*client_, command);
    }

    void OnWriteDone(bool ok) override
    {
        std::unique_lock lock(mutex_);
        writing_ = false;
        if (!ok)
            closing_ = true;
        writeNextLocked(lock);
    }

    void OnDone() override
    {
        if (outbox_) {
            outbox_->close();
            client_->dropTelemetry(outbox_);
            // A lite push consumer whose last stream broke is gone (the Java proxy's
            // COMPLETE_REMOVE on CANCELLED): its lite topics go to the group's other clients now,
            // not when it would have expired.
            const auto settings = client_->settings();
            if (context_->IsCancelled() && !client_->hasTelemetry() && settings && isLiteClient(settings->client_type()))
                service_.broker().pop().removeLiteClient(client_->clientId());
        }
        delete this;
    }

private:
    void onSettings(const v2::Settings &settings)
    {
        if (settings.pub_sub_case() == v2::Settings::PUB_SUB_NOT_SET) {
            std::unique_lock lock(mutex_);
            if (!finished_) {
                finished_ = true;
                lock.unlock();
                Finish(::grpc::Status(::grpc::StatusCode::INVALID_ARGUMENT, "settings name neither publishing nor subscription"));
            }
            return;
        }
        v2::Settings merged = settings;
        if (settings.has_publishing()) {
            for (const v2::Resource &topic : settings.publishing().topics()) {
                if (v2::Status status = checkTopicName(topic.name()); !isOk(status))
                    return reply(std::move(status), std::nullopt);
            }
            mergeProducerSettings(merged);
        } else if (v2::Status status = checkGroupName(settings.subscription().group().name()); !isOk(status)) {
            return reply(std::move(status), std::nullopt);
        } else if (v2::Status refusal = liteModeRefusal(settings); !isOk(refusal)) {
            return reply(std::move(refusal), std::nullopt);
        }
        const v2::UA &ua = settings.user_agent();
        client_->setSettings(merged, languageOf(ua.language()), v2::Language_Name(ua.language()), ua.version());
        std::weak_ptr<TelemetryOutbox> outbox = outbox_;
        std::shared_ptr<GrpcClient> client = client_;
        MessagingService &service = service_;
        service_.registerWithBroker(*client_, merged, [&service, client, outbox, merged](v2::Status status) mutable {
            if (merged.has_subscription()) {
                // The group exists now (the heartbeat creates it where allowed): its config says
                // FIFO and attempts.
                const auto group =
                    service.broker().subscriptionGroups().findSubscriptionGroupConfig(merged.subscription().group().name());
                mergeConsumerSettings(merged, group, service.config().consumerLongPollingMillis);
                const GrpcClientInfo info = client->info();
                client->setSettings(merged, info.language, info.languageName, info.version);
            }
            v2::TelemetryCommand answer;
            *answer.mutable_status() = std::move(status);
            if (isOk(answer.status()))
                *answer.mutable_settings() = merged;
            if (auto open = outbox.lock())
                open->push(std::move(answer));
        });
    }

    // The Java proxy's validateLiteMode: a lite client (push or simple) needs a lite group bound to
    // the topic it subscribes; any other consumer is kept off a lite group, whose queues are LMQs.
    v2::Status liteModeRefusal(const v2::Settings &settings) const
    {
        const v2::Subscription &subscription = settings.subscription();
        const std::string &group = subscription.group().name();
        const auto config = service_.broker().subscriptionGroups().findSubscriptionGroupConfig(group);
        const std::string *bound = config ? config->attributes.find(remoting::kLiteBindTopicAttribute) : nullptr;
        if (!isLiteClient(settings.client_type())) {
            if (bound != nullptr)
                return makeStatus(v2::Code::ILLEGAL_CONSUMER_GROUP, "lite group must use LITE mode: " + group);
            return makeStatus(v2::Code::OK, "OK");
        }
        if (!config)
            return makeStatus(v2::Code::ILLEGAL_CONSUMER_GROUP, "group not found: " + group);
        if (bound == nullptr)
            return makeStatus(v2::Code::ILLEGAL_CONSUMER_GROUP, "regular group cannot use LITE mode: " + group);
        const std::string topic =
            subscription.subscriptions_size() > 0 ? subscription.subscriptions(0).topic().name() : std::string();
        if (topic != *bound)
            return makeStatus(v2::Code::ILLEGAL_TOPIC, "lite group " + group + " is expected to bind topic " + *bound
                                                           + ", but actual is " + topic);
        return makeStatus(v2::Code::OK, "OK");
    }

    void reply(v2::Status status, std::optional<v2::Settings> settings)
    {
        v2::TelemetryCommand answer;
        *answer.mutable_status() = std::move(status);
        if (settings)
            *answer.mutable_settings() = std::move(*settings);
        enqueue(std::move(answer));
    }

    void enqueue(v2::TelemetryCommand command)
    {
        std::unique_lock lock(mutex_);
        if (finished_)
            return;
        queue_.push_back(std::move(command));
        writeNextLocked(lock);
    }

    void writeNextLocked(std::unique_lock<std::mutex> &lock)
    {
        if (writing_ || finished_)
            return;
        if (queue_.empty()) {
            if (closing_) {
                finished_ = true;
                lock.unlock();
                Finish(::grpc::Status::OK);
            }
            return;
        }
        current_ = std::move(queue_.front());
        queue_.pop_front();
        writing_ = true;
        lock.unlock();
        StartWrite(&current_);
    }

    MessagingService &service_;
    ::grpc::CallbackServerContext *const context_; // valid until OnDone
    std::shared_ptr<GrpcClient> client_;
    std::shared_ptr<TelemetryOutbox> outbox_;
    v2::TelemetryCommand incoming_;

    std::mutex mutex_;
    std::deque<v2::TelemetryCommand> queue_; // guarded by mutex_
    v2::TelemetryCommand current_;           // the write in flight
    bool writing_ = false;                   // guarded by mutex_
    bool closing_ = false;                   // guarded by mutex_
    bool finished_ = false;                  // guarded by mutex_
};

} // namespace

// A consumer's: from its group's config, with an exponential backoff (a customized one leaves the
// Node SDK without any retry policy: spec §7.4 #9).
void mergeConsumerSettings(v2::Settings &settings, const std::optional<store::SubscriptionGroupConfig> &group,
                           int64_t longPollingMillis)
{
    v2::Subscription &subscription = *settings.mutable_subscription();
    subscription.set_fifo(group && group->consumeMessageOrderly);
    subscription.set_receive_batch_size(kReceiveBatchSize);
    setMillis(subscription.mutable_long_polling_timeout(), longPollingMillis);
    // LiteTopic (5.5): how many lite topics a client may hold (the group's lite.sub.client.quota)
    // and how long a lite topic name may be. A 5.2 SDK without them refuses every subscribeLite.
    const std::string *quota = group ? group->attributes.find("lite.sub.client.quota") : nullptr;
    const auto quotaValue = quota ? remoting::parseJavaLong(*quota) : std::nullopt;
    subscription.set_lite_subscription_quota(
        static_cast<int32_t>(std::clamp<int64_t>(quotaValue.value_or(kDefaultLiteSubscriptionQuota), -1, INT32_MAX)));
    subscription.set_max_lite_topic_size(kMaxLiteTopicSize);
    v2::RetryPolicy &policy = *settings.mutable_backoff_policy();
    policy.set_max_attempts((group ? group->retryMaxTimes : 16) + 1);
    v2::ExponentialBackoff &backoff = *policy.mutable_exponential_backoff();
    setMillis(backoff.mutable_initial(), 1000);
    setMillis(backoff.mutable_max(), 7200 * 1000);
    backoff.set_multiplier(2);
    settings.mutable_metric()->set_on(false);
}

::grpc::ServerBidiReactor<v2::TelemetryCommand, v2::TelemetryCommand> *MessagingService::Telemetry(
    ::grpc::CallbackServerContext *context)
{
    return new TelemetryReactor(*this, context);
}

} // namespace mqdesk::grpc
