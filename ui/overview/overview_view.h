#pragma once

// Overview: the embedded broker at a glance — its state, the addresses clients use (with a
// copy button and ready-to-paste client snippets for Java, Spring Boot, Go and Node.js, naming
// the cluster the views show: ClientSnippets), its store and its flush mode — and, when it
// failed to start, what failed and how to fix it. Below it, every broker of the cluster the
// views show (BrokersPanel).

#include "ui/broker_host.h"

#include <QWidget>

class QAction;
class QLabel;
class QPushButton;

namespace mqdesk::ui {

class BrokersPanel;
class ClientSnippets;
class ClusterConnection;

class OverviewView : public QWidget
{
    Q_OBJECT

public:
    OverviewView(BrokerHost &host, ClusterConnection &connection, QWidget *parent = nullptr);
    void refresh();

    BrokersPanel *brokers() const { return brokers_; }
    ClientSnippets *clientSnippets() const { return snippets_; }
    // "Use port N": restarts the broker on the free ports found after a port conflict (shown
    // while there is one; the status bar offers it too).
    QAction *usePortsAction() const { return usePortsAction_; }
    // Opens "Choose ports…" (the result restarts the broker on the ports chosen).
    void choosePorts();

private:
    QString failureText() const;

    BrokerHost &host_;
    ClusterConnection &connection_;
    QLabel *title_ = nullptr;
    QLabel *details_ = nullptr;
    ClientSnippets *snippets_ = nullptr;
    QWidget *clientPart_ = nullptr; // the snippets and the copy button, while the views show a cluster
    BrokersPanel *brokers_ = nullptr;
    QWidget *portFix_ = nullptr;
    QPushButton *usePortsButton_ = nullptr;
    QAction *usePortsAction_ = nullptr;
};

} // namespace mqdesk::ui
