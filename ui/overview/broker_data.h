#pragma once

// What the Overview's brokers table shows, fetched with blocking client calls (run it off the GUI
// thread, through ClusterConnection::run): one GET_BROKER_CLUSTER_INFO and one
// GET_BROKER_RUNTIME_INFO per broker (as mqadmin clusterList), plus GET_BROKER_CONFIG for a
// broker whose runtime info does not carry its flush mode (Java).

#include "ui/overview/broker_table_model.h"

#include <vector>

namespace mqdesk::client {
class AdminClient;
}

namespace mqdesk::ui {

struct BrokerListing
{
    client::Status status; // the cluster info's failure; a broker's failure is in its row
    std::vector<BrokerRow> rows; // by cluster, broker name, id
};

BrokerListing fetchBrokerRows(client::AdminClient &admin);

} // namespace mqdesk::ui
