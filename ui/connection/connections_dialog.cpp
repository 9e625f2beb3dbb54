#include "ui/connection/connections_dialog.h"

#include "ui/connection/connection_manager.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace mqdesk::ui {

ConnectionsDialog::ConnectionsDialog(ConnectionManager &manager, QWidget *parent)
    : QDialog(parent), manager_(manager)
{
    setWindowTitle(tr("Connections"));
    setObjectName(QStringLiteral("connectionsDialog"));

    auto *intro = new QLabel(tr("The embedded broker is always available. Add RocketMQ clusters by their "
                                "NameServer address to look at them with the same views."),
                             this);
    intro->setWordWrap(true);
    notes_ = new QLabel(this);
    notes_->setObjectName(QStringLiteral("connectionNotes"));
    notes_->setWordWrap(true);
    notes_->setStyleSheet(QStringLiteral("background: #fff4ce; color: #5c4400; border-radius: 4px; padding: 4px;"));

    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("connectionList"));
    renameButton_ = new QPushButton(tr("Rename…"), this);
    credentialsButton_ = new QPushButton(tr("Credentials…"), this);
    credentialsButton_->setObjectName(QStringLiteral("connectionCredentials"));
    removeButton_ = new QPushButton(tr("Remove"), this);
    removeButton_->setObjectName(QStringLiteral("removeConnection"));
    useButton_ = new QPushButton(tr("Show in the views"), this);
    auto *listButtons = new QVBoxLayout;
    listButtons->addWidget(useButton_);
    listButtons->addWidget(renameButton_);
    listButtons->addWidget(credentialsButton_);
    listButtons->addWidget(removeButton_);
    listButtons->addStretch(1);
    auto *listRow = new QHBoxLayout;
    listRow->addWidget(list_, 1);
    listRow->addLayout(listButtons);

    nameEdit_ = new QLineEdit(this);
    nameEdit_->setObjectName(QStringLiteral("connectionName"));
    nameEdit_->setPlaceholderText(tr("e.g. Staging"));
    addressEdit_ = new QLineEdit(this);
    addressEdit_->setObjectName(QStringLiteral("connectionAddress"));
    addressEdit_->setPlaceholderText(tr("host:port;host:port, e.g. 10.0.0.5:9876"));
    accessKeyEdit_ = new QLineEdit(this);
    accessKeyEdit_->setObjectName(QStringLiteral("connectionAccessKey"));
    accessKeyEdit_->setPlaceholderText(tr("optional: for a cluster with ACL on"));
    secretKeyEdit_ = new QLineEdit(this);
    secretKeyEdit_->setObjectName(QStringLiteral("connectionSecretKey"));
    secretKeyEdit_->setEchoMode(QLineEdit::Password);
    secretKeyEdit_->setPlaceholderText(tr("kept in the desktop's keyring"));
    tlsCheck_ = new QCheckBox(tr("Connect with TLS (a cluster with tls.server.mode=enforcing); its certificate is "
                                 "trusted on first use"),
                              this);
    tlsCheck_->setObjectName(QStringLiteral("connectionTls"));
    addButton_ = new QPushButton(tr("Add"), this);
    addButton_->setObjectName(QStringLiteral("addConnection"));
    error_ = new QLabel(this);
    error_->setObjectName(QStringLiteral("connectionError"));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #8a1f11;"));
    error_->hide();
    auto *form = new QFormLayout;
    form->addRow(tr("Name:"), nameEdit_);
    form->addRow(tr("NameServer:"), addressEdit_);
    form->addRow(tr("Access key:"), accessKeyEdit_);
    form->addRow(tr("Secret key:"), secretKeyEdit_);
    form->addRow(QString(), tlsCheck_);
    auto *addRow = new QHBoxLayout;
    addRow->addWidget(error_, 1);
    addRow->addWidget(addButton_);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(notes_);
    layout->addLayout(listRow, 1);
    layout->addLayout(form);
    layout->addLayout(addRow);
    layout->addWidget(buttons);

    connect(addButton_, &QPushButton::clicked, this, &ConnectionsDialog::addFromFields);
    connect(addressEdit_, &QLineEdit::returnPressed, this, &ConnectionsDialog::addFromFields);
    connect(addressEdit_, &QLineEdit::textEdited, this, [this](const QString &text) {
        // Said while typing, once there is something to judge.
        showError(text.trimmed().isEmpty() ? QString() : ConnectionManager::validateAddress(text));
    });
    connect(renameButton_, &QPushButton::clicked, this, &ConnectionsDialog::renameSelected);
    connect(credentialsButton_, &QPushButton::clicked, this, &ConnectionsDialog::editCredentials);
    connect(&manager_, &ConnectionManager::keyringNote, this, [this](const QString &text) {
        keyringNote_ = text;
        reloadList();
    });
    connect(removeButton_, &QPushButton::clicked, this, &ConnectionsDialog::removeSelected);
    connect(useButton_, &QPushButton::clicked, this, [this] {
        manager_.select(list_->currentRow());
        accept();
    });
    connect(list_, &QListWidget::itemActivated, useButton_, &QPushButton::click);
    connect(list_, &QListWidget::currentRowChanged, this, &ConnectionsDialog::updateButtons);
    connect(&manager_, &ConnectionManager::connectionsChanged, this, &ConnectionsDialog::reloadList);
    reloadList();
    resize(520, 420);
}

bool ConnectionsDialog::addFromFields()
{
    QString error;
    if (!manager_.addConnection(nameEdit_->text(), addressEdit_->text(), &error, accessKeyEdit_->text(),
                                secretKeyEdit_->text(), tlsCheck_->isChecked())) {
        showError(error);
        return false;
    }
    showError({});
    nameEdit_->clear();
    addressEdit_->clear();
    accessKeyEdit_->clear();
    secretKeyEdit_->clear();
    tlsCheck_->setChecked(false);
    list_->setCurrentRow(list_->count() - 1);
    return true;
}

QString ConnectionsDialog::errorText() const
{
    return error_->isHidden() ? QString() : error_->text();
}

void ConnectionsDialog::reloadList()
{
    const int row = list_->currentRow();
    list_->clear();
    for (const SavedConnection &connection : manager_.connections()) {
        QString text = connection.accessKey.isEmpty()
                           ? tr("%1 — %2").arg(connection.name, connection.namesrvAddress)
                           : tr("%1 — %2 — as %3").arg(connection.name, connection.namesrvAddress, connection.accessKey);
        const QStringList trusted = connection.tlsPin.split(QLatin1Char(';'), Qt::SkipEmptyParts);
        if (connection.tls)
            text += trusted.isEmpty() ? tr(" — TLS, no certificate seen yet")
                                      : tr(" — TLS, %n server certificate(s) trusted", nullptr, int(trusted.size()));
        auto *item = new QListWidgetItem(text, list_);
        if (!trusted.isEmpty())
            item->setToolTip(tr("Trusted on first use:\n%1").arg(trusted.join(QLatin1Char('\n'))));
    }
    if (list_->count() > 0)
        list_->setCurrentRow(qBound(0, row, list_->count() - 1));
    QStringList notes = manager_.loadNotes();
    if (!keyringNote_.isEmpty())
        notes << keyringNote_;
    notes_->setText(notes.join(QLatin1Char('\n')));
    notes_->setVisible(!notes.isEmpty());
    updateButtons();
}

void ConnectionsDialog::updateButtons()
{
    const bool selected = list_->currentRow() >= 0;
    renameButton_->setEnabled(selected);
    credentialsButton_->setEnabled(selected);
    removeButton_->setEnabled(selected);
    useButton_->setEnabled(selected);
}

void ConnectionsDialog::renameSelected()
{
    const int row = list_->currentRow();
    if (row < 0 || row >= static_cast<int>(manager_.connections().size()))
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename connection"), tr("Name:"), QLineEdit::Normal,
                                               manager_.connections()[row].name, &ok);
    QString error;
    if (ok && !manager_.renameConnection(row, name, &error))
        showError(error);
}

void ConnectionsDialog::editCredentials()
{
    const int row = list_->currentRow();
    if (row < 0 || row >= static_cast<int>(manager_.connections().size()))
        return;
    const SavedConnection &connection = manager_.connections()[row];
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Credentials of %1").arg(connection.name));
    dialog.setObjectName(QStringLiteral("credentialsDialog"));
    auto *intro = new QLabel(tr("RocketMQ's access key and secret key (ACL 1.0 accounts and ACL 2.0 users alike). "
                                "The secret key is kept in the desktop's keyring, never in MQDesk's files. "
                                "Leave the access key empty to send unsigned requests."),
                             &dialog);
    intro->setWordWrap(true);
    auto *accessKey = new QLineEdit(connection.accessKey, &dialog);
    accessKey->setObjectName(QStringLiteral("credentialsAccessKey"));
    auto *secretKey = new QLineEdit(&dialog);
    secretKey->setObjectName(QStringLiteral("credentialsSecretKey"));
    secretKey->setEchoMode(QLineEdit::Password);
    secretKey->setPlaceholderText(connection.accessKey.isEmpty() ? QString() : tr("unchanged"));
    auto *error = new QLabel(&dialog);
    error->setObjectName(QStringLiteral("credentialsError"));
    error->setStyleSheet(QStringLiteral("color: #8a1f11;"));
    error->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, &dialog);
    auto *form = new QFormLayout;
    form->addRow(tr("Access key:"), accessKey);
    form->addRow(tr("Secret key:"), secretKey);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(error);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        QString why;
        if (manager_.setCredentials(row, accessKey->text(), secretKey->text(), &why)) {
            dialog.accept();
            return;
        }
        error->setText(why);
        error->show();
    });
    dialog.exec();
}

void ConnectionsDialog::removeSelected()
{
    manager_.removeConnection(list_->currentRow());
}

void ConnectionsDialog::showError(const QString &text)
{
    error_->setText(text);
    error_->setVisible(!text.isEmpty());
}

} // namespace mqdesk::ui
