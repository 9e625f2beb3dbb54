#include "test_support.h"

QObject *createClientBodiesTest();
QObject *createProducerConsumerTest();
QObject *createAdminClientTest();
QObject *createTransactionTest();
QObject *createOrderlyTest();
QObject *createQueriesTest();
QObject *createConcurrencyTest();
QObject *createMessageTraceTest();

MQDESK_TEST_MAIN(createClientBodiesTest(), createProducerConsumerTest(), createAdminClientTest(), createTransactionTest(), createOrderlyTest(),
                  createQueriesTest(), createConcurrencyTest(), createMessageTraceTest())
