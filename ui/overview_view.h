#pragma once

// Overview: the embedded broker at a glance — its state, the addresses clients use (with a
// copy button and a ready-to-paste client snippet), its store and its flush mode — and, when it
// failed to start, what failed and how to fix it. Below it, every broker of the cluster the
// views show (BrokersPanel).

#include "ui/broker_host.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace mqdesk::ui {

class BrokersPanel;
class ClusterConnection;

class OverviewView : public QWidget
{
    Q_OBJECT

public:
    OverviewView(BrokerHost &host, ClusterConnection &connection, QWidget *parent = nullptr);
    void refresh();
    BrokersPanel *brokers() const { return brokers_; }

private:
    BrokerHost &host_;
    QLabel *title_ = nullptr;
    QLabel *details_ = nullptr;
    QPlainTextEdit *snippet_ = nullptr;
    BrokersPanel *brokers_ = nullptr;
};

} // namespace mqdesk::ui
