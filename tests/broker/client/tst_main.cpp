#include "test_support.h"

QObject *createClientBodiesTest();
QObject *createProducerConsumerTest();
QObject *createAdminClientTest();
QObject *createTransactionTest();

MQDESK_TEST_MAIN(createClientBodiesTest(), createProducerConsumerTest(), createAdminClientTest(), createTransactionTest())
