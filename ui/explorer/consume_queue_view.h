#pragma once

// ConsumeQueueView: the explorer's page for one consume queue — its entries (ConsumeQueueModel,
// lazy). Enter or a double-click on an entry asks for the record it points at; an entry that
// points nowhere says why instead.

#include "ui/explorer/consume_queue_model.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace mqdesk::ui {

class ConsumeQueueView : public QWidget
{
    Q_OBJECT

public:
    explicit ConsumeQueueView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent = nullptr);

    // Shows the queue from `fromQueueOffset` on and selects that entry once loaded.
    void showQueue(const QString &topic, int queueId, qint64 fromQueueOffset);
    void refresh();
    void followEnd();
    // Opens the record of the selected entry (Enter / double-click: the table's activated()).
    void openSelectedEntry();

    ConsumeQueueModel *model() const { return model_; }
    QTableView *table() const { return table_; }
    QString headerText() const;

signals:
    void recordRequested(qint64 commitLogOffset);
    void message(const QString &text);

private:
    void onPageLoaded();

    ConsumeQueueModel *model_ = nullptr;
    QLabel *header_ = nullptr;
    QTableView *table_ = nullptr;
    qint64 selectQueueOffset_ = -1;
    qint64 firstQueueOffset_ = 0;
};

} // namespace mqdesk::ui
