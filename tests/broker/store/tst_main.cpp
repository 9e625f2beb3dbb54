#include "test_support.h"

QObject *createMappedFileQueueTest();
QObject *createCommitLogTest();
QObject *createFlushTest();
QObject *createRecoveryTest();
QObject *createConsumeQueueTest();
QObject *createBatchConsumeQueueTest();
QObject *createIndexTest();
QObject *createStoreReaderTest();
QObject *createReaderFilesTest();
QObject *createRecordLayoutTest();
QObject *createStoreCorruptionTest();
QObject *createStoreVerifierTest();
QObject *createStoreFaultsTest();
QObject *createDiskFaultsTest();
QObject *createTimerFilesTest();
QObject *createTimerStoreTest();
QObject *createTimerReaderTest();
QObject *createWritePathTest();
QObject *createLmqDispatchTest();

MQDESK_TEST_MAIN(createMappedFileQueueTest(), createCommitLogTest(), createFlushTest(), createRecoveryTest(),
                 createConsumeQueueTest(), createBatchConsumeQueueTest(), createIndexTest(), createStoreReaderTest(), createReaderFilesTest(),
                 createRecordLayoutTest(), createStoreCorruptionTest(), createStoreVerifierTest(),
                 createStoreFaultsTest(), createDiskFaultsTest(),
                 createTimerFilesTest(), createTimerStoreTest(), createTimerReaderTest(), createWritePathTest(),
                 createLmqDispatchTest())
