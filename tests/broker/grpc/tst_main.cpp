#include "test_support.h"

QObject *createGrpcAccessControlTest();
QObject *createReceiptRenewalsTest();
QObject *createGrpcEndpointTest();

MQDESK_TEST_MAIN(createGrpcAccessControlTest(), createReceiptRenewalsTest(), createGrpcEndpointTest())
