#include "test_support.h"

QObject *createMappedFileQueueTest();
QObject *createCommitLogTest();
QObject *createFlushTest();
QObject *createRecoveryTest();

MQDESK_TEST_MAIN(createMappedFileQueueTest(), createCommitLogTest(), createFlushTest(), createRecoveryTest())
