#include "test_support.h"

QObject *createSendPullTest();

MQDESK_TEST_MAIN(createSendPullTest())
