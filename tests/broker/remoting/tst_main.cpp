#include "test_support.h"

QObject *createRemotingCommandTest();
QObject *createRemotingCodecTest();
QObject *createFrameDecoderTest();
QObject *createRemotingServerTest();
QObject *createRemotingClientTest();
QObject *createRemotingLimitsTest();
QObject *createClientDataTest();
QObject *createQueueTablesTest();
QObject *createRemotingTlsTest();

MQDESK_TEST_MAIN(createRemotingCommandTest(), createRemotingCodecTest(), createFrameDecoderTest(),
                 createRemotingServerTest(), createRemotingClientTest(), createRemotingLimitsTest(),
                 createClientDataTest(), createQueueTablesTest(), createRemotingTlsTest())
