#include "ui/connection/secret_store.h"

#include <qt6keychain/keychain.h>

namespace mqdesk::ui {

namespace {

// Jobs delete themselves after `finished`; insecure fallback (a plain file) stays off.
template<typename Job>
Job *newJob(const QString &service, const QString &key)
{
    auto *job = new Job(service);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    return job;
}

} // namespace

SecretStore::SecretStore(QString service, QObject *parent) : QObject(parent), service_(std::move(service)) {}

void SecretStore::read(const QString &name, QObject *context, std::function<void(QString, QString)> done)
{
    if (auto it = session_.constFind(name); it != session_.constEnd()) {
        done(*it, {});
        return;
    }
    auto *job = newJob<QKeychain::ReadPasswordJob>(service_, name);
    QPointer<QObject> guard(context);
    connect(job, &QKeychain::Job::finished, this, [this, name, guard, done = std::move(done)](QKeychain::Job *finished) {
        auto *readJob = static_cast<QKeychain::ReadPasswordJob *>(finished);
        QString secret, error;
        if (readJob->error() == QKeychain::NoError) {
            secret = readJob->textData();
            session_.insert(name, secret);
        } else if (readJob->error() == QKeychain::EntryNotFound) {
            error = tr("the keyring holds no secret key for \"%1\"").arg(name);
        } else {
            error = tr("the keyring could not be read: %1").arg(readJob->errorString());
        }
        if (guard)
            done(secret, error);
    });
    job->start();
}

void SecretStore::write(const QString &name, const QString &secret, QObject *context,
                        std::function<void(QString)> done)
{
    session_.insert(name, secret);
    auto *job = newJob<QKeychain::WritePasswordJob>(service_, name);
    job->setTextData(secret);
    QPointer<QObject> guard(context);
    connect(job, &QKeychain::Job::finished, this, [guard, done = std::move(done)](QKeychain::Job *finished) {
        QString error;
        if (finished->error() != QKeychain::NoError)
            error = tr("The secret key is kept for this session only: the desktop's keyring could not "
                       "store it (%1).")
                        .arg(finished->errorString());
        if (guard)
            done(error);
    });
    job->start();
}

void SecretStore::remove(const QString &name)
{
    session_.remove(name);
    newJob<QKeychain::DeletePasswordJob>(service_, name)->start();
}

void SecretStore::rename(const QString &from, const QString &to)
{
    if (from == to)
        return;
    read(from, this, [this, from, to](const QString &secret, const QString &error) {
        if (!error.isEmpty())
            return; // nothing stored under the old name
        write(to, secret, this, [](const QString &) {});
        remove(from);
    });
}

} // namespace mqdesk::ui
