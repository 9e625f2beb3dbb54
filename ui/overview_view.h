#pragma once

// Overview: the embedded broker at a glance — its state, the addresses clients use (with a
// copy button and a ready-to-paste client snippet), its store and its flush mode — and, when it
// failed to start, what failed and how to fix it. Below it, every broker of the cluster the
// views show (BrokersPanel).

#include "ui/broker_host.h"

#include <QWidget>

class QAction;
class QLabel;
class QPlainTextEdit;
class QPushButton;

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
    // "Use port N": restarts the broker on the free ports found after a port conflict (shown
    // while there is one; the status bar offers it too).
    QAction *usePortsAction() const { return usePortsAction_; }
    // Opens "Choose ports…" (the result restarts the broker on the ports chosen).
    void choosePorts();

private:
    QString failureText() const;

    BrokerHost &host_;
    QLabel *title_ = nullptr;
    QLabel *details_ = nullptr;
    QPlainTextEdit *snippet_ = nullptr;
    QWidget *clientPart_ = nullptr; // the snippet and the copy button, while the broker runs
    BrokersPanel *brokers_ = nullptr;
    QWidget *portFix_ = nullptr;
    QPushButton *usePortsButton_ = nullptr;
    QAction *usePortsAction_ = nullptr;
};

} // namespace mqdesk::ui
