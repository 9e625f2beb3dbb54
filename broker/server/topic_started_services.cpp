#include "broker/server/topic_started_services.h"

namespace mqdesk::server {

TopicStartedServices::TopicStartedServices(std::vector<Service> services) : services_(std::move(services)) {}

void TopicStartedServices::arm()
{
    std::lock_guard lock(mutex_);
    armed_ = true;
    for (const Service &service : services_) {
        if (service.storeHoldsAny())
            service.start();
    }
}

void TopicStartedServices::disarm()
{
    std::lock_guard lock(mutex_);
    armed_ = false;
}

void TopicStartedServices::onMessageArriving(const std::string &topic)
{
    for (const Service &service : services_) {
        if (service.topic != topic)
            continue;
        std::lock_guard lock(mutex_);
        if (armed_)
            service.start();
        return;
    }
}

} // namespace mqdesk::server
