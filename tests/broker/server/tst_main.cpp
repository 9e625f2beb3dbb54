#include "test_support.h"

QObject *createSendPullTest();
QObject *createAdminTest();
QObject *createRetryDelayTest();
QObject *createConfigUpdateTest();
QObject *createRequestReplyTest();
QObject *createSqlFilterBrokerTest();
QObject *createTopicTypesTest();
QObject *createTimerMessagesTest();
QObject *createPopTest();
QObject *createPopLongPollingTest();
QObject *createClientCallsTest();
QObject *createLiteTopicsTest();
QObject *createStaticTopicsTest();

MQDESK_TEST_MAIN(createSendPullTest(), createAdminTest(), createRetryDelayTest(), createConfigUpdateTest(),
                  createRequestReplyTest(), createSqlFilterBrokerTest(), createTopicTypesTest(), createTimerMessagesTest(),
                  createPopTest(), createPopLongPollingTest(), createClientCallsTest(), createLiteTopicsTest(),
                  createStaticTopicsTest())
