#pragma once

// "Choose ports…": the embedded broker's NameServer and broker ports, checked as they are typed
// (0 = any free port, else the two different and each free now — probed by binding); OK only
// when both are usable.

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QSpinBox;

namespace mqdesk::ui {

class ChoosePortsDialog : public QDialog
{
    Q_OBJECT

public:
    ChoosePortsDialog(const QString &host, quint16 namesrvPort, quint16 brokerPort, QWidget *parent = nullptr);

    quint16 namesrvPort() const;
    quint16 brokerPort() const;
    void setPorts(quint16 namesrvPort, quint16 brokerPort);
    // Why OK is disabled; empty when the ports are usable.
    QString problem() const;

private:
    void check();

    QString host_;
    QSpinBox *namesrv_ = nullptr;
    QSpinBox *broker_ = nullptr;
    QLabel *problem_ = nullptr;
    QDialogButtonBox *buttons_ = nullptr;
};

} // namespace mqdesk::ui
