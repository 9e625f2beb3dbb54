#pragma once

// The Connections dialog: the saved clusters (name, NameServer address, optional ACL credentials,
// TLS with the certificate trusted on first use)
// with add, rename, credentials and remove, the address checked as it is typed; problems are
// said inline, under the fields; a secret key the keyring could not store is said in the notes.

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace mqdesk::ui {

class ConnectionManager;

class ConnectionsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ConnectionsDialog(ConnectionManager &manager, QWidget *parent = nullptr);

    // Adds the connection in the name and address fields; false with the reason shown inline.
    bool addFromFields();
    QString errorText() const;

private:
    void reloadList();
    void updateButtons();
    void renameSelected();
    void removeSelected();
    void editCredentials();
    void showError(const QString &text);

    ConnectionManager &manager_;
    QLabel *notes_ = nullptr;
    QListWidget *list_ = nullptr;
    QLineEdit *nameEdit_ = nullptr;
    QLineEdit *addressEdit_ = nullptr;
    QLineEdit *accessKeyEdit_ = nullptr;
    QLineEdit *secretKeyEdit_ = nullptr;
    QCheckBox *tlsCheck_ = nullptr;
    QPushButton *credentialsButton_ = nullptr;
    QString keyringNote_;
    QLabel *error_ = nullptr;
    QPushButton *addButton_ = nullptr;
    QPushButton *renameButton_ = nullptr;
    QPushButton *removeButton_ = nullptr;
    QPushButton *useButton_ = nullptr;
};

} // namespace mqdesk::ui
