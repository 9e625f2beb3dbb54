#pragma once

// HexView: bytes as "offset | hex | ASCII" rows of 16, painted for the visible rows only (a
// record may be megabytes; a text widget holding its dump would not scroll). Offsets are shown
// from `baseOffset` (the record's commit-log offset). One range can be highlighted (the selected
// field); clicking a byte reports it so the owner can select the field holding it. Ctrl+C copies
// the highlighted bytes as hex.

#include <QAbstractScrollArea>
#include <QByteArray>

namespace mqdesk::ui {

class HexView : public QAbstractScrollArea
{
    Q_OBJECT

public:
    static constexpr int kBytesPerRow = 16;

    explicit HexView(QWidget *parent = nullptr);

    QSize sizeHint() const override; // wide enough for a whole row: offset, hex and ASCII

    void setBytes(const QByteArray &bytes, qint64 baseOffset);
    const QByteArray &bytes() const { return bytes_; }
    // Highlights [position, position + length) (positions within bytes()) and scrolls it into
    // view; length 0 clears the highlight.
    void setHighlight(qint64 position, qint64 length);
    qint64 highlightPosition() const { return highlightPosition_; }
    qint64 highlightLength() const { return highlightLength_; }
    // The byte under a viewport point, or -1 (tests drive clicks through it).
    qint64 positionAt(const QPoint &viewportPoint) const;
    // The highlighted bytes as "00 1F …" (what Ctrl+C copies).
    QString highlightedHex() const;
    // Where byte `position`'s hex digits are drawn, in viewport coordinates.
    QRect hexCellRect(qint64 position) const;

signals:
    void byteClicked(qint64 position);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void updateScrollBars();
    qint64 rowCount() const { return (bytes_.size() + kBytesPerRow - 1) / kBytesPerRow; }
    int lineHeight() const;
    int charWidth() const;
    int hexColumnX() const;   // x of the first hex digit
    int asciiColumnX() const; // x of the first ASCII character

    QByteArray bytes_;
    qint64 baseOffset_ = 0;
    qint64 highlightPosition_ = 0;
    qint64 highlightLength_ = 0;
};

} // namespace mqdesk::ui
