#include "ui/choose_ports_dialog.h"

#include "ui/port_choice.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace mqdesk::ui {

ChoosePortsDialog::ChoosePortsDialog(const QString &host, quint16 namesrvPort, quint16 brokerPort, QWidget *parent)
    : QDialog(parent), host_(host)
{
    setWindowTitle(tr("Choose ports"));
    const auto portBox = [this](const QString &name) {
        auto *box = new QSpinBox(this);
        box->setObjectName(name);
        box->setRange(0, 65535);
        box->setSpecialValueText(tr("any free port")); // 0, as --namesrv-port 0 on the command line
        box->setGroupSeparatorShown(false);
        return box;
    };
    namesrv_ = portBox(QStringLiteral("namesrvPortBox"));
    broker_ = portBox(QStringLiteral("brokerPortBox"));
    problem_ = new QLabel(this);
    problem_->setObjectName(QStringLiteral("portProblem"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #8a1f11;"));
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Start on these ports"));
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout;
    form->addRow(tr("NameServer port:"), namesrv_);
    form->addRow(tr("Broker port:"), broker_);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Clients connect to the NameServer port; the broker port is "
                                    "what the NameServer hands them for sending and pulling."),
                                 this));
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons_);

    setPorts(namesrvPort, brokerPort);
    connect(namesrv_, &QSpinBox::valueChanged, this, &ChoosePortsDialog::check);
    connect(broker_, &QSpinBox::valueChanged, this, &ChoosePortsDialog::check);
}

quint16 ChoosePortsDialog::namesrvPort() const
{
    return static_cast<quint16>(namesrv_->value());
}

quint16 ChoosePortsDialog::brokerPort() const
{
    return static_cast<quint16>(broker_->value());
}

void ChoosePortsDialog::setPorts(quint16 namesrvPort, quint16 brokerPort)
{
    const QSignalBlocker blockNamesrv(namesrv_);
    const QSignalBlocker blockBroker(broker_);
    namesrv_->setValue(namesrvPort);
    broker_->setValue(brokerPort);
    check();
}

QString ChoosePortsDialog::problem() const
{
    return problem_->text();
}

void ChoosePortsDialog::check()
{
    // Binding a local socket answers at once: checking as the user types keeps the dialog honest.
    QString problem;
    if (namesrvPort() != 0 && namesrvPort() == brokerPort())
        problem = tr("The NameServer and the broker need two different ports.");
    else if (namesrvPort() != 0 && !portIsFree(host_, namesrvPort()))
        problem = tr("Port %1 (NameServer) is in use on %2 — choose another port.").arg(namesrvPort()).arg(host_);
    else if (brokerPort() != 0 && !brokerPortIsFree(host_, brokerPort()))
        problem = tr("Port %1 (broker) is in use on %2 — choose another port.").arg(brokerPort()).arg(host_);
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

} // namespace mqdesk::ui
