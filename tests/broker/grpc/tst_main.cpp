#include "test_support.h"

QObject *createGrpcAccessControlTest();
QObject *createReceiptRenewalsTest();
QObject *createGrpcEndpointTest();
QObject *createGrpcEndpointAuthTest();

MQDESK_TEST_MAIN(createGrpcAccessControlTest(), createReceiptRenewalsTest(), createGrpcEndpointTest(),
                 createGrpcEndpointAuthTest())
