#include "test_support.h"

QObject *createClientBodiesTest();
QObject *createProducerConsumerTest();
QObject *createAdminClientTest();

MQDESK_TEST_MAIN(createClientBodiesTest(), createProducerConsumerTest(), createAdminClientTest())
