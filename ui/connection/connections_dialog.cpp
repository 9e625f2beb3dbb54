#include "ui/connection/connections_dialog.h"

#include "ui/connection/connection_manager.h"

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
    removeButton_ = new QPushButton(tr("Remove"), this);
    removeButton_->setObjectName(QStringLiteral("removeConnection"));
    useButton_ = new QPushButton(tr("Show in the views"), this);
    auto *listButtons = new QVBoxLayout;
    listButtons->addWidget(useButton_);
    listButtons->addWidget(renameButton_);
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
    if (!manager_.addConnection(nameEdit_->text(), addressEdit_->text(), &error)) {
        showError(error);
        return false;
    }
    showError({});
    nameEdit_->clear();
    addressEdit_->clear();
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
    for (const SavedConnection &connection : manager_.connections())
        list_->addItem(tr("%1 — %2").arg(connection.name, connection.namesrvAddress));
    if (list_->count() > 0)
        list_->setCurrentRow(qBound(0, row, list_->count() - 1));
    const QStringList notes = manager_.loadNotes();
    notes_->setText(notes.join(QLatin1Char('\n')));
    notes_->setVisible(!notes.isEmpty());
    updateButtons();
}

void ConnectionsDialog::updateButtons()
{
    const bool selected = list_->currentRow() >= 0;
    renameButton_->setEnabled(selected);
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
