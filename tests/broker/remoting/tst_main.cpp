#include "test_support.h"

QObject *createRemotingCommandTest();
QObject *createRemotingCodecTest();
QObject *createFrameDecoderTest();

MQDESK_TEST_MAIN(createRemotingCommandTest(), createRemotingCodecTest(), createFrameDecoderTest())
