/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment ActionFields on Action {\n    code\n    kind\n    priority\n    message\n    resolve { method endpoint url params inputs { name } graphql { query variables } }\n  }\n": typeof types.ActionFieldsFragmentDoc,
    "\n  query Viewer {\n    viewer { id email displayName plan currency processor { status chargesEnabled testMode } }\n  }\n": typeof types.ViewerDocument,
    "\n  query Home {\n    viewer {\n      id\n      displayName\n      currency\n      stats { totalRevenue totalOrders totalListings }\n      membershipStats { mrr activeMemberships currency }\n      anyMembership: memberships(first: 1) { edges { node { id } } }\n      readiness { operational next actions { ...ActionFields } }\n      orders(first: 5) {\n        edges { node { id buyerEmail amount currency status createdAt paidAt listingSnapshot } }\n      }\n    }\n  }\n": typeof types.HomeDocument,
    "\n  query Dashboard($from: String!, $to: String!, $prevFrom: String!, $prevTo: String!, $interval: AnalyticsInterval!) {\n    viewer {\n      id\n      current: analytics(from: $from, to: $to, interval: $interval) {\n        currency\n        interval\n        from\n        to\n        totals { revenue orders refunds views checkouts conversionRate mrr activeMemberships }\n        series { start revenue orders views }\n        topListings(first: 5) { listingId title listing { id } revenue orders views conversionRate }\n      }\n      previous: analytics(from: $prevFrom, to: $prevTo, interval: $interval) {\n        totals { revenue orders views conversionRate }\n      }\n    }\n  }\n": typeof types.DashboardDocument,
    "\n  query ListingAnalytics($listingId: ID!, $from: String!, $to: String!, $prevFrom: String!, $prevTo: String!, $interval: AnalyticsInterval!) {\n    viewer {\n      id\n      current: analytics(from: $from, to: $to, interval: $interval, listingId: $listingId) {\n        currency\n        interval\n        from\n        to\n        totals { revenue orders refunds views checkouts conversionRate }\n        series { start revenue orders views }\n      }\n      previous: analytics(from: $prevFrom, to: $prevTo, interval: $interval, listingId: $listingId) {\n        totals { revenue orders views conversionRate }\n      }\n    }\n  }\n": typeof types.ListingAnalyticsDocument,
    "\n  mutation StartBootstrap($input: BootstrapInput!) {\n    startBootstrap(input: $input) { sessionId email status expiresAt }\n  }\n": typeof types.StartBootstrapDocument,
    "\n  mutation VerifyBootstrap($input: BootstrapVerifyInput!) {\n    verifyBootstrap(input: $input) { sessionId status accountId accountCreated }\n  }\n": typeof types.VerifyBootstrapDocument,
    "\n  mutation CompleteBootstrap($input: BootstrapStoreInput!) {\n    completeBootstrap(input: $input) { id displayName slug url apiKey }\n  }\n": typeof types.CompleteBootstrapDocument,
    "\n  query Processor {\n    viewer {\n      id\n      currency\n      processor { accountId status chargesEnabled payoutsEnabled testMode }\n    }\n  }\n": typeof types.ProcessorDocument,
    "\n  mutation ConnectProcessor { connectProcessor { url expiresAt } }\n": typeof types.ConnectProcessorDocument,
    "\n  mutation DisconnectProcessor { disconnectProcessor { accountId affectedListings } }\n": typeof types.DisconnectProcessorDocument,
    "\n  mutation SetTestKey($input: UpdateAccountInput!) {\n    updateAccount(input: $input) { id processor { status chargesEnabled payoutsEnabled testMode } }\n  }\n": typeof types.SetTestKeyDocument,
    "\n  query Listings($first: Int, $after: String, $status: ListingStatus, $query: String) {\n    viewer {\n      id\n      listings(first: $first, after: $after, status: $status, query: $query) {\n        edges { node { id title price pricing billing interval currency status url updatedAt readiness { sellable } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.ListingsDocument,
    "\n  fragment ListingFields on Listing {\n    id\n    title\n    description\n    price\n    pricing\n    suggestedPrice\n    maximumPrice\n    billing\n    interval\n    trialDays\n    currency\n    slug\n    status\n    url\n    coverUrl\n    coverBlur\n    fulfillment\n    externalDelivery\n    utmSource\n    utmMedium\n    utmCampaign\n    publishedAt\n    updatedAt\n    deliverables { id type value file { name size contentType } }\n    checkoutSchema { key label kind required options }\n    license { activationLimit expiresAfterDays keyPrefix }\n    readiness { sellable next actions { ...ActionFields } }\n  }\n": typeof types.ListingFieldsFragmentDoc,
    "\n  query Listing($id: ID!) {\n    listing(id: $id) { ...ListingFields }\n    viewer { id currency }\n  }\n": typeof types.ListingDocument,
    "\n  mutation CreateListing($input: CreateListingInput!) {\n    createListing(input: $input) { ...ListingFields }\n  }\n": typeof types.CreateListingDocument,
    "\n  mutation UpdateListing($id: ID!, $input: UpdateListingInput!) {\n    updateListing(id: $id, input: $input) { ...ListingFields }\n  }\n": typeof types.UpdateListingDocument,
    "\n  mutation PublishListing($id: ID!) { publishListing(id: $id) { ...ListingFields } }\n": typeof types.PublishListingDocument,
    "\n  mutation DeleteListing($id: ID!) { deleteListing(id: $id) }\n": typeof types.DeleteListingDocument,
    "\n  mutation AddDeliverable($listingId: ID!, $input: DeliverableInput!) {\n    addDeliverable(listingId: $listingId, input: $input) { id type value file { name size contentType } }\n  }\n": typeof types.AddDeliverableDocument,
    "\n  mutation RemoveDeliverable($listingId: ID!, $deliverableId: ID!) {\n    removeDeliverable(listingId: $listingId, deliverableId: $deliverableId)\n  }\n": typeof types.RemoveDeliverableDocument,
    "\n  mutation UploadFile($file: Upload!, $purpose: FilePurpose!) {\n    uploadFile(file: $file, purpose: $purpose) { token filename size contentType }\n  }\n": typeof types.UploadFileDocument,
    "\n  query Orders(\n    $first: Int\n    $after: String\n    $status: OrderStatus\n    $listing: ID\n    $buyerEmail: String\n    $createdAfter: Time\n    $createdBefore: Time\n    $query: String\n  ) {\n    viewer {\n      id\n      orders(\n        first: $first\n        after: $after\n        status: $status\n        listing: $listing\n        buyerEmail: $buyerEmail\n        createdAfter: $createdAfter\n        createdBefore: $createdBefore\n        query: $query\n      ) {\n        edges { node { id buyerEmail amount currency status createdAt listingSnapshot billingReason discount { code } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.OrdersDocument,
    "\n  fragment OrderFields on Order {\n    id\n    listingId\n    listingSlug\n    customerId\n    buyerEmail\n    subtotal\n    discount { id code amount }\n    amount\n    currency\n    platformFee\n    netAmount\n    contentType\n    status\n    paymentStatus\n    paymentIntentId\n    checkoutData\n    listingSnapshot\n    sellerSnapshot\n    handedOffAt\n    hasDeliverables\n    deliverables { id type value file { name size contentType } }\n    disputeStatus\n    refundAmount\n    refundedAt\n    createdAt\n    paidAt\n    fulfilledAt\n    canceledAt\n    membershipId\n    billingReason\n    membership { id status interval amount currency }\n    readiness { next actions { ...ActionFields } }\n  }\n": typeof types.OrderFieldsFragmentDoc,
    "\n  query Order($id: ID!) { order(id: $id) { ...OrderFields } }\n": typeof types.OrderDocument,
    "\n  query DiscountExists($id: ID!) { node(id: $id) { id } }\n": typeof types.DiscountExistsDocument,
    "\n  mutation FulfillOrder($id: ID!, $input: FulfillInput) {\n    fulfillOrder(id: $id, input: $input) { ...OrderFields }\n  }\n": typeof types.FulfillOrderDocument,
    "\n  mutation RefundOrder($id: ID!) { refundOrder(id: $id) { ...OrderFields } }\n": typeof types.RefundOrderDocument,
    "\n  mutation RedeliverOrder($id: ID!) { redeliverOrder(id: $id) { orderId events endpoints } }\n": typeof types.RedeliverOrderDocument,
    "\n  mutation CreateCustomerPortalLink($customerId: ID!) { createCustomerPortalLink(customerId: $customerId) { url expiresAt } }\n": typeof types.CreateCustomerPortalLinkDocument,
    "\n  query Customers($first: Int, $after: String, $email: String, $query: String) {\n    viewer {\n      id\n      customers(first: $first, after: $after, email: $email, query: $query) {\n        edges { node { id email ordersCount totalSpent currency firstOrderAt lastOrderAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.CustomersDocument,
    "\n  query Customer($id: ID!) {\n    customer(id: $id) { id email ordersCount totalSpent currency firstOrderAt lastOrderAt createdAt }\n  }\n": typeof types.CustomerDocument,
    "\n  query Webhooks {\n    viewer {\n      id\n      webhooks(first: 20) {\n        edges {\n          node {\n            id\n            url\n            name\n            events\n            status\n            disabledReason\n            consecutiveFailures\n            createdAt\n            deliveries(first: 10) {\n              edges {\n                node { id type status attempts lastStatusCode lastError nextAttemptAt deliveredAt failedAt createdAt }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.WebhooksDocument,
    "\n  query AgentConnections {\n    viewer {\n      id\n      agentConnections(first: 20) {\n        edges {\n          node {\n            id\n            name\n            webhookUrl\n            status\n            createdAt\n            lastUsedAt\n            deliveries(first: 10) {\n              edges {\n                node { id type status attempts lastStatusCode lastError nextAttemptAt deliveredAt failedAt createdAt }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.AgentConnectionsDocument,
    "\n  mutation CreateAgentConnection($input: CreateAgentConnectionInput!) {\n    createAgentConnection(input: $input) { id name webhookUrl status token webhookSecret }\n  }\n": typeof types.CreateAgentConnectionDocument,
    "\n  mutation UpdateAgentConnection($id: ID!, $input: UpdateAgentConnectionInput!) {\n    updateAgentConnection(id: $id, input: $input) { id name webhookUrl status }\n  }\n": typeof types.UpdateAgentConnectionDocument,
    "\n  mutation DeleteAgentConnection($id: ID!) { deleteAgentConnection(id: $id) }\n": typeof types.DeleteAgentConnectionDocument,
    "\n  mutation CreateWebhook($input: CreateWebhookInput!) {\n    createWebhook(input: $input) { id url name events status secret }\n  }\n": typeof types.CreateWebhookDocument,
    "\n  mutation UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) {\n    updateWebhook(id: $id, input: $input) { id status disabledReason consecutiveFailures }\n  }\n": typeof types.UpdateWebhookDocument,
    "\n  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }\n": typeof types.DeleteWebhookDocument,
    "\n  mutation TestWebhook($id: ID!) { testWebhook(id: $id) { statusCode body durationMs error } }\n": typeof types.TestWebhookDocument,
    "\n  mutation RetryWebhookEvent($webhookId: ID!, $eventId: ID!) {\n    retryWebhookEvent(webhookId: $webhookId, eventId: $eventId) { id status attempts lastStatusCode lastError deliveredAt }\n  }\n": typeof types.RetryWebhookEventDocument,
    "\n  query LatestEvents($last: Int!) {\n    viewer {\n      id\n      events(last: $last) {\n        edges { node { id type createdAt orderId listingId data } }\n        pageInfo { endCursor hasPreviousPage }\n      }\n    }\n  }\n": typeof types.LatestEventsDocument,
    "\n  subscription Events($after: ID) { events(after: $after) { id type createdAt orderId listingId data } }\n": typeof types.EventsDocument,
    "\n  query ApiKeys {\n    viewer {\n      id\n      apiKeys(first: 100) {\n        edges { node { id name scope prefix createdAt lastUsedAt expiresAt } }\n      }\n    }\n  }\n": typeof types.ApiKeysDocument,
    "\n  query RequestLog($first: Int, $after: String, $apiKey: ID, $status: RequestStatusClass) {\n    viewer {\n      id\n      apiKeys(first: 100) { edges { node { id name prefix } } }\n      requestLog(first: $first, after: $after, apiKey: $apiKey, status: $status) {\n        edges { cursor node { apiKeyId method path operation status correlationId createdAt durationMs } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.RequestLogDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { id name scope prefix key }\n  }\n": typeof types.CreateApiKeyDocument,
    "\n  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n": typeof types.DeleteApiKeyDocument,
    "\n  fragment DiscountFields on Discount {\n    id\n    name\n    code\n    type\n    percentOff\n    amountOff\n    listingIds\n    startsAt\n    expiresAt\n    maxRedemptions\n    maxRedemptionsPerCustomer\n    minimumAmount\n    redemptionsCount\n    status\n    shareUrl\n    createdAt\n    updatedAt\n    readiness { usable next actions { ...ActionFields } }\n  }\n": typeof types.DiscountFieldsFragmentDoc,
    "\n  query Discounts($first: Int, $after: String, $status: DiscountStatus) {\n    viewer {\n      id\n      currency\n      discounts(first: $first, after: $after, status: $status) {\n        edges { node { ...DiscountFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.DiscountsDocument,
    "\n  query Discount($id: ID!) {\n    discount(id: $id) { ...DiscountFields }\n    viewer { id currency }\n  }\n": typeof types.DiscountDocument,
    "\n  query ListingTitles($ids: [ID!]!) {\n    nodes(ids: $ids) { id ... on Listing { title status } }\n  }\n": typeof types.ListingTitlesDocument,
    "\n  query ListingChoices($after: String) {\n    viewer {\n      id\n      listings(first: 100, after: $after) {\n        edges { node { id title status } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.ListingChoicesDocument,
    "\n  mutation CreateDiscount($input: CreateDiscountInput!) {\n    createDiscount(input: $input) { ...DiscountFields }\n  }\n": typeof types.CreateDiscountDocument,
    "\n  mutation UpdateDiscount($id: ID!, $input: UpdateDiscountInput!) {\n    updateDiscount(id: $id, input: $input) { ...DiscountFields }\n  }\n": typeof types.UpdateDiscountDocument,
    "\n  mutation DeleteDiscount($id: ID!) { deleteDiscount(id: $id) }\n": typeof types.DeleteDiscountDocument,
    "\n  query Settings {\n    viewer { id email displayName gaMeasurementId notifyOrders notifyWebhooks }\n    store { id displayName bio avatarUrl slug url }\n  }\n": typeof types.SettingsDocument,
    "\n  mutation UpdateStore($input: UpdateStoreInput!) {\n    updateStore(input: $input) { id displayName bio avatarUrl slug url }\n  }\n": typeof types.UpdateStoreDocument,
    "\n  mutation UpdateAccount($input: UpdateAccountInput!) {\n    updateAccount(input: $input) { id displayName gaMeasurementId notifyOrders notifyWebhooks }\n  }\n": typeof types.UpdateAccountDocument,
    "\n  query Billing {\n    plans { id name feeRate monthlyPrice currency }\n    viewer { id plan feeRate billingStatus subscription { plan status currentPeriodEnd cancelAt } }\n  }\n": typeof types.BillingDocument,
    "\n  mutation ChangePlan($input: ChangePlanInput!) {\n    changePlan(input: $input) { plan status url expiresAt }\n  }\n": typeof types.ChangePlanDocument,
    "\n  mutation SignIn($input: SignInInput!) {\n    signIn(input: $input) { expiresAt account { id email } }\n  }\n": typeof types.SignInDocument,
    "\n  mutation SignOut { signOut }\n": typeof types.SignOutDocument,
    "\n  fragment LicenseKeyFields on LicenseKey {\n    id\n    key\n    listingId\n    orderId\n    customerId\n    status\n    activationLimit\n    activationsCount\n    expiresAt\n    lastValidatedAt\n    createdAt\n    updatedAt\n  }\n": typeof types.LicenseKeyFieldsFragmentDoc,
    "\n  query LicenseKeys($first: Int, $after: String, $status: LicenseKeyStatus, $key: String, $email: String) {\n    viewer {\n      id\n      licenseKeys(first: $first, after: $after, status: $status, key: $key, email: $email) {\n        edges { node { ...LicenseKeyFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.LicenseKeysDocument,
    "\n  query LicenseKey($id: ID!) {\n    licenseKey(id: $id) {\n      ...LicenseKeyFields\n      activations { id fingerprint label metadata createdAt lastSeenAt }\n    }\n  }\n": typeof types.LicenseKeyDocument,
    "\n  query LicenseKeyContext($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      id\n      ... on Order { buyerEmail }\n      ... on Listing { title }\n    }\n  }\n": typeof types.LicenseKeyContextDocument,
    "\n  mutation UpdateLicenseKey($id: ID!, $input: UpdateLicenseKeyInput!) {\n    updateLicenseKey(id: $id, input: $input) {\n      ...LicenseKeyFields\n      activations { id fingerprint label metadata createdAt lastSeenAt }\n    }\n  }\n": typeof types.UpdateLicenseKeyDocument,
    "\n  mutation DeleteLicenseActivation($licenseKeyId: ID!, $activationId: ID!) {\n    deleteLicenseActivation(licenseKeyId: $licenseKeyId, activationId: $activationId)\n  }\n": typeof types.DeleteLicenseActivationDocument,
    "\n  fragment MembershipRowFields on Membership {\n    id\n    buyerEmail\n    customerId\n    listingId\n    status\n    interval\n    amount\n    currency\n    currentPeriodEnd\n    trialEnd\n    endedAt\n    createdAt\n    listing { id title }\n  }\n": typeof types.MembershipRowFieldsFragmentDoc,
    "\n  query Memberships($first: Int, $after: String, $status: MembershipStatus, $buyerEmail: String, $customer: ID) {\n    viewer {\n      id\n      memberships(first: $first, after: $after, status: $status, buyerEmail: $buyerEmail, customer: $customer) {\n        edges { node { ...MembershipRowFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.MembershipsDocument,
    "\n  fragment MembershipFields on Membership {\n    ...MembershipRowFields\n    currentPeriodStart\n    cancelAtPeriodEnd\n    canceledAt\n    endedReason\n    latestOrderId\n    ordersCount\n    updatedAt\n  }\n": typeof types.MembershipFieldsFragmentDoc,
    "\n  query Membership($id: ID!, $after: String) {\n    membership(id: $id) {\n      ...MembershipFields\n      orders(first: 20, after: $after) {\n        edges { node { id amount currency status billingReason createdAt paidAt discount { code } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.MembershipDocument,
    "\n  mutation CancelMembership($id: ID!, $atPeriodEnd: Boolean) {\n    cancelMembership(id: $id, atPeriodEnd: $atPeriodEnd) { ...MembershipFields }\n  }\n": typeof types.CancelMembershipDocument,
    "\n  mutation ResumeMembership($id: ID!) {\n    resumeMembership(id: $id) { ...MembershipFields }\n  }\n": typeof types.ResumeMembershipDocument,
};
const documents: Documents = {
    "\n  fragment ActionFields on Action {\n    code\n    kind\n    priority\n    message\n    resolve { method endpoint url params inputs { name } graphql { query variables } }\n  }\n": types.ActionFieldsFragmentDoc,
    "\n  query Viewer {\n    viewer { id email displayName plan currency processor { status chargesEnabled testMode } }\n  }\n": types.ViewerDocument,
    "\n  query Home {\n    viewer {\n      id\n      displayName\n      currency\n      stats { totalRevenue totalOrders totalListings }\n      membershipStats { mrr activeMemberships currency }\n      anyMembership: memberships(first: 1) { edges { node { id } } }\n      readiness { operational next actions { ...ActionFields } }\n      orders(first: 5) {\n        edges { node { id buyerEmail amount currency status createdAt paidAt listingSnapshot } }\n      }\n    }\n  }\n": types.HomeDocument,
    "\n  query Dashboard($from: String!, $to: String!, $prevFrom: String!, $prevTo: String!, $interval: AnalyticsInterval!) {\n    viewer {\n      id\n      current: analytics(from: $from, to: $to, interval: $interval) {\n        currency\n        interval\n        from\n        to\n        totals { revenue orders refunds views checkouts conversionRate mrr activeMemberships }\n        series { start revenue orders views }\n        topListings(first: 5) { listingId title listing { id } revenue orders views conversionRate }\n      }\n      previous: analytics(from: $prevFrom, to: $prevTo, interval: $interval) {\n        totals { revenue orders views conversionRate }\n      }\n    }\n  }\n": types.DashboardDocument,
    "\n  query ListingAnalytics($listingId: ID!, $from: String!, $to: String!, $prevFrom: String!, $prevTo: String!, $interval: AnalyticsInterval!) {\n    viewer {\n      id\n      current: analytics(from: $from, to: $to, interval: $interval, listingId: $listingId) {\n        currency\n        interval\n        from\n        to\n        totals { revenue orders refunds views checkouts conversionRate }\n        series { start revenue orders views }\n      }\n      previous: analytics(from: $prevFrom, to: $prevTo, interval: $interval, listingId: $listingId) {\n        totals { revenue orders views conversionRate }\n      }\n    }\n  }\n": types.ListingAnalyticsDocument,
    "\n  mutation StartBootstrap($input: BootstrapInput!) {\n    startBootstrap(input: $input) { sessionId email status expiresAt }\n  }\n": types.StartBootstrapDocument,
    "\n  mutation VerifyBootstrap($input: BootstrapVerifyInput!) {\n    verifyBootstrap(input: $input) { sessionId status accountId accountCreated }\n  }\n": types.VerifyBootstrapDocument,
    "\n  mutation CompleteBootstrap($input: BootstrapStoreInput!) {\n    completeBootstrap(input: $input) { id displayName slug url apiKey }\n  }\n": types.CompleteBootstrapDocument,
    "\n  query Processor {\n    viewer {\n      id\n      currency\n      processor { accountId status chargesEnabled payoutsEnabled testMode }\n    }\n  }\n": types.ProcessorDocument,
    "\n  mutation ConnectProcessor { connectProcessor { url expiresAt } }\n": types.ConnectProcessorDocument,
    "\n  mutation DisconnectProcessor { disconnectProcessor { accountId affectedListings } }\n": types.DisconnectProcessorDocument,
    "\n  mutation SetTestKey($input: UpdateAccountInput!) {\n    updateAccount(input: $input) { id processor { status chargesEnabled payoutsEnabled testMode } }\n  }\n": types.SetTestKeyDocument,
    "\n  query Listings($first: Int, $after: String, $status: ListingStatus, $query: String) {\n    viewer {\n      id\n      listings(first: $first, after: $after, status: $status, query: $query) {\n        edges { node { id title price pricing billing interval currency status url updatedAt readiness { sellable } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.ListingsDocument,
    "\n  fragment ListingFields on Listing {\n    id\n    title\n    description\n    price\n    pricing\n    suggestedPrice\n    maximumPrice\n    billing\n    interval\n    trialDays\n    currency\n    slug\n    status\n    url\n    coverUrl\n    coverBlur\n    fulfillment\n    externalDelivery\n    utmSource\n    utmMedium\n    utmCampaign\n    publishedAt\n    updatedAt\n    deliverables { id type value file { name size contentType } }\n    checkoutSchema { key label kind required options }\n    license { activationLimit expiresAfterDays keyPrefix }\n    readiness { sellable next actions { ...ActionFields } }\n  }\n": types.ListingFieldsFragmentDoc,
    "\n  query Listing($id: ID!) {\n    listing(id: $id) { ...ListingFields }\n    viewer { id currency }\n  }\n": types.ListingDocument,
    "\n  mutation CreateListing($input: CreateListingInput!) {\n    createListing(input: $input) { ...ListingFields }\n  }\n": types.CreateListingDocument,
    "\n  mutation UpdateListing($id: ID!, $input: UpdateListingInput!) {\n    updateListing(id: $id, input: $input) { ...ListingFields }\n  }\n": types.UpdateListingDocument,
    "\n  mutation PublishListing($id: ID!) { publishListing(id: $id) { ...ListingFields } }\n": types.PublishListingDocument,
    "\n  mutation DeleteListing($id: ID!) { deleteListing(id: $id) }\n": types.DeleteListingDocument,
    "\n  mutation AddDeliverable($listingId: ID!, $input: DeliverableInput!) {\n    addDeliverable(listingId: $listingId, input: $input) { id type value file { name size contentType } }\n  }\n": types.AddDeliverableDocument,
    "\n  mutation RemoveDeliverable($listingId: ID!, $deliverableId: ID!) {\n    removeDeliverable(listingId: $listingId, deliverableId: $deliverableId)\n  }\n": types.RemoveDeliverableDocument,
    "\n  mutation UploadFile($file: Upload!, $purpose: FilePurpose!) {\n    uploadFile(file: $file, purpose: $purpose) { token filename size contentType }\n  }\n": types.UploadFileDocument,
    "\n  query Orders(\n    $first: Int\n    $after: String\n    $status: OrderStatus\n    $listing: ID\n    $buyerEmail: String\n    $createdAfter: Time\n    $createdBefore: Time\n    $query: String\n  ) {\n    viewer {\n      id\n      orders(\n        first: $first\n        after: $after\n        status: $status\n        listing: $listing\n        buyerEmail: $buyerEmail\n        createdAfter: $createdAfter\n        createdBefore: $createdBefore\n        query: $query\n      ) {\n        edges { node { id buyerEmail amount currency status createdAt listingSnapshot billingReason discount { code } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.OrdersDocument,
    "\n  fragment OrderFields on Order {\n    id\n    listingId\n    listingSlug\n    customerId\n    buyerEmail\n    subtotal\n    discount { id code amount }\n    amount\n    currency\n    platformFee\n    netAmount\n    contentType\n    status\n    paymentStatus\n    paymentIntentId\n    checkoutData\n    listingSnapshot\n    sellerSnapshot\n    handedOffAt\n    hasDeliverables\n    deliverables { id type value file { name size contentType } }\n    disputeStatus\n    refundAmount\n    refundedAt\n    createdAt\n    paidAt\n    fulfilledAt\n    canceledAt\n    membershipId\n    billingReason\n    membership { id status interval amount currency }\n    readiness { next actions { ...ActionFields } }\n  }\n": types.OrderFieldsFragmentDoc,
    "\n  query Order($id: ID!) { order(id: $id) { ...OrderFields } }\n": types.OrderDocument,
    "\n  query DiscountExists($id: ID!) { node(id: $id) { id } }\n": types.DiscountExistsDocument,
    "\n  mutation FulfillOrder($id: ID!, $input: FulfillInput) {\n    fulfillOrder(id: $id, input: $input) { ...OrderFields }\n  }\n": types.FulfillOrderDocument,
    "\n  mutation RefundOrder($id: ID!) { refundOrder(id: $id) { ...OrderFields } }\n": types.RefundOrderDocument,
    "\n  mutation RedeliverOrder($id: ID!) { redeliverOrder(id: $id) { orderId events endpoints } }\n": types.RedeliverOrderDocument,
    "\n  mutation CreateCustomerPortalLink($customerId: ID!) { createCustomerPortalLink(customerId: $customerId) { url expiresAt } }\n": types.CreateCustomerPortalLinkDocument,
    "\n  query Customers($first: Int, $after: String, $email: String, $query: String) {\n    viewer {\n      id\n      customers(first: $first, after: $after, email: $email, query: $query) {\n        edges { node { id email ordersCount totalSpent currency firstOrderAt lastOrderAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.CustomersDocument,
    "\n  query Customer($id: ID!) {\n    customer(id: $id) { id email ordersCount totalSpent currency firstOrderAt lastOrderAt createdAt }\n  }\n": types.CustomerDocument,
    "\n  query Webhooks {\n    viewer {\n      id\n      webhooks(first: 20) {\n        edges {\n          node {\n            id\n            url\n            name\n            events\n            status\n            disabledReason\n            consecutiveFailures\n            createdAt\n            deliveries(first: 10) {\n              edges {\n                node { id type status attempts lastStatusCode lastError nextAttemptAt deliveredAt failedAt createdAt }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": types.WebhooksDocument,
    "\n  query AgentConnections {\n    viewer {\n      id\n      agentConnections(first: 20) {\n        edges {\n          node {\n            id\n            name\n            webhookUrl\n            status\n            createdAt\n            lastUsedAt\n            deliveries(first: 10) {\n              edges {\n                node { id type status attempts lastStatusCode lastError nextAttemptAt deliveredAt failedAt createdAt }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": types.AgentConnectionsDocument,
    "\n  mutation CreateAgentConnection($input: CreateAgentConnectionInput!) {\n    createAgentConnection(input: $input) { id name webhookUrl status token webhookSecret }\n  }\n": types.CreateAgentConnectionDocument,
    "\n  mutation UpdateAgentConnection($id: ID!, $input: UpdateAgentConnectionInput!) {\n    updateAgentConnection(id: $id, input: $input) { id name webhookUrl status }\n  }\n": types.UpdateAgentConnectionDocument,
    "\n  mutation DeleteAgentConnection($id: ID!) { deleteAgentConnection(id: $id) }\n": types.DeleteAgentConnectionDocument,
    "\n  mutation CreateWebhook($input: CreateWebhookInput!) {\n    createWebhook(input: $input) { id url name events status secret }\n  }\n": types.CreateWebhookDocument,
    "\n  mutation UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) {\n    updateWebhook(id: $id, input: $input) { id status disabledReason consecutiveFailures }\n  }\n": types.UpdateWebhookDocument,
    "\n  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }\n": types.DeleteWebhookDocument,
    "\n  mutation TestWebhook($id: ID!) { testWebhook(id: $id) { statusCode body durationMs error } }\n": types.TestWebhookDocument,
    "\n  mutation RetryWebhookEvent($webhookId: ID!, $eventId: ID!) {\n    retryWebhookEvent(webhookId: $webhookId, eventId: $eventId) { id status attempts lastStatusCode lastError deliveredAt }\n  }\n": types.RetryWebhookEventDocument,
    "\n  query LatestEvents($last: Int!) {\n    viewer {\n      id\n      events(last: $last) {\n        edges { node { id type createdAt orderId listingId data } }\n        pageInfo { endCursor hasPreviousPage }\n      }\n    }\n  }\n": types.LatestEventsDocument,
    "\n  subscription Events($after: ID) { events(after: $after) { id type createdAt orderId listingId data } }\n": types.EventsDocument,
    "\n  query ApiKeys {\n    viewer {\n      id\n      apiKeys(first: 100) {\n        edges { node { id name scope prefix createdAt lastUsedAt expiresAt } }\n      }\n    }\n  }\n": types.ApiKeysDocument,
    "\n  query RequestLog($first: Int, $after: String, $apiKey: ID, $status: RequestStatusClass) {\n    viewer {\n      id\n      apiKeys(first: 100) { edges { node { id name prefix } } }\n      requestLog(first: $first, after: $after, apiKey: $apiKey, status: $status) {\n        edges { cursor node { apiKeyId method path operation status correlationId createdAt durationMs } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.RequestLogDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { id name scope prefix key }\n  }\n": types.CreateApiKeyDocument,
    "\n  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n": types.DeleteApiKeyDocument,
    "\n  fragment DiscountFields on Discount {\n    id\n    name\n    code\n    type\n    percentOff\n    amountOff\n    listingIds\n    startsAt\n    expiresAt\n    maxRedemptions\n    maxRedemptionsPerCustomer\n    minimumAmount\n    redemptionsCount\n    status\n    shareUrl\n    createdAt\n    updatedAt\n    readiness { usable next actions { ...ActionFields } }\n  }\n": types.DiscountFieldsFragmentDoc,
    "\n  query Discounts($first: Int, $after: String, $status: DiscountStatus) {\n    viewer {\n      id\n      currency\n      discounts(first: $first, after: $after, status: $status) {\n        edges { node { ...DiscountFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.DiscountsDocument,
    "\n  query Discount($id: ID!) {\n    discount(id: $id) { ...DiscountFields }\n    viewer { id currency }\n  }\n": types.DiscountDocument,
    "\n  query ListingTitles($ids: [ID!]!) {\n    nodes(ids: $ids) { id ... on Listing { title status } }\n  }\n": types.ListingTitlesDocument,
    "\n  query ListingChoices($after: String) {\n    viewer {\n      id\n      listings(first: 100, after: $after) {\n        edges { node { id title status } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.ListingChoicesDocument,
    "\n  mutation CreateDiscount($input: CreateDiscountInput!) {\n    createDiscount(input: $input) { ...DiscountFields }\n  }\n": types.CreateDiscountDocument,
    "\n  mutation UpdateDiscount($id: ID!, $input: UpdateDiscountInput!) {\n    updateDiscount(id: $id, input: $input) { ...DiscountFields }\n  }\n": types.UpdateDiscountDocument,
    "\n  mutation DeleteDiscount($id: ID!) { deleteDiscount(id: $id) }\n": types.DeleteDiscountDocument,
    "\n  query Settings {\n    viewer { id email displayName gaMeasurementId notifyOrders notifyWebhooks }\n    store { id displayName bio avatarUrl slug url }\n  }\n": types.SettingsDocument,
    "\n  mutation UpdateStore($input: UpdateStoreInput!) {\n    updateStore(input: $input) { id displayName bio avatarUrl slug url }\n  }\n": types.UpdateStoreDocument,
    "\n  mutation UpdateAccount($input: UpdateAccountInput!) {\n    updateAccount(input: $input) { id displayName gaMeasurementId notifyOrders notifyWebhooks }\n  }\n": types.UpdateAccountDocument,
    "\n  query Billing {\n    plans { id name feeRate monthlyPrice currency }\n    viewer { id plan feeRate billingStatus subscription { plan status currentPeriodEnd cancelAt } }\n  }\n": types.BillingDocument,
    "\n  mutation ChangePlan($input: ChangePlanInput!) {\n    changePlan(input: $input) { plan status url expiresAt }\n  }\n": types.ChangePlanDocument,
    "\n  mutation SignIn($input: SignInInput!) {\n    signIn(input: $input) { expiresAt account { id email } }\n  }\n": types.SignInDocument,
    "\n  mutation SignOut { signOut }\n": types.SignOutDocument,
    "\n  fragment LicenseKeyFields on LicenseKey {\n    id\n    key\n    listingId\n    orderId\n    customerId\n    status\n    activationLimit\n    activationsCount\n    expiresAt\n    lastValidatedAt\n    createdAt\n    updatedAt\n  }\n": types.LicenseKeyFieldsFragmentDoc,
    "\n  query LicenseKeys($first: Int, $after: String, $status: LicenseKeyStatus, $key: String, $email: String) {\n    viewer {\n      id\n      licenseKeys(first: $first, after: $after, status: $status, key: $key, email: $email) {\n        edges { node { ...LicenseKeyFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.LicenseKeysDocument,
    "\n  query LicenseKey($id: ID!) {\n    licenseKey(id: $id) {\n      ...LicenseKeyFields\n      activations { id fingerprint label metadata createdAt lastSeenAt }\n    }\n  }\n": types.LicenseKeyDocument,
    "\n  query LicenseKeyContext($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      id\n      ... on Order { buyerEmail }\n      ... on Listing { title }\n    }\n  }\n": types.LicenseKeyContextDocument,
    "\n  mutation UpdateLicenseKey($id: ID!, $input: UpdateLicenseKeyInput!) {\n    updateLicenseKey(id: $id, input: $input) {\n      ...LicenseKeyFields\n      activations { id fingerprint label metadata createdAt lastSeenAt }\n    }\n  }\n": types.UpdateLicenseKeyDocument,
    "\n  mutation DeleteLicenseActivation($licenseKeyId: ID!, $activationId: ID!) {\n    deleteLicenseActivation(licenseKeyId: $licenseKeyId, activationId: $activationId)\n  }\n": types.DeleteLicenseActivationDocument,
    "\n  fragment MembershipRowFields on Membership {\n    id\n    buyerEmail\n    customerId\n    listingId\n    status\n    interval\n    amount\n    currency\n    currentPeriodEnd\n    trialEnd\n    endedAt\n    createdAt\n    listing { id title }\n  }\n": types.MembershipRowFieldsFragmentDoc,
    "\n  query Memberships($first: Int, $after: String, $status: MembershipStatus, $buyerEmail: String, $customer: ID) {\n    viewer {\n      id\n      memberships(first: $first, after: $after, status: $status, buyerEmail: $buyerEmail, customer: $customer) {\n        edges { node { ...MembershipRowFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.MembershipsDocument,
    "\n  fragment MembershipFields on Membership {\n    ...MembershipRowFields\n    currentPeriodStart\n    cancelAtPeriodEnd\n    canceledAt\n    endedReason\n    latestOrderId\n    ordersCount\n    updatedAt\n  }\n": types.MembershipFieldsFragmentDoc,
    "\n  query Membership($id: ID!, $after: String) {\n    membership(id: $id) {\n      ...MembershipFields\n      orders(first: 20, after: $after) {\n        edges { node { id amount currency status billingReason createdAt paidAt discount { code } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.MembershipDocument,
    "\n  mutation CancelMembership($id: ID!, $atPeriodEnd: Boolean) {\n    cancelMembership(id: $id, atPeriodEnd: $atPeriodEnd) { ...MembershipFields }\n  }\n": types.CancelMembershipDocument,
    "\n  mutation ResumeMembership($id: ID!) {\n    resumeMembership(id: $id) { ...MembershipFields }\n  }\n": types.ResumeMembershipDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ActionFields on Action {\n    code\n    kind\n    priority\n    message\n    resolve { method endpoint url params inputs { name } graphql { query variables } }\n  }\n"): (typeof documents)["\n  fragment ActionFields on Action {\n    code\n    kind\n    priority\n    message\n    resolve { method endpoint url params inputs { name } graphql { query variables } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Viewer {\n    viewer { id email displayName plan currency processor { status chargesEnabled testMode } }\n  }\n"): (typeof documents)["\n  query Viewer {\n    viewer { id email displayName plan currency processor { status chargesEnabled testMode } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Home {\n    viewer {\n      id\n      displayName\n      currency\n      stats { totalRevenue totalOrders totalListings }\n      membershipStats { mrr activeMemberships currency }\n      anyMembership: memberships(first: 1) { edges { node { id } } }\n      readiness { operational next actions { ...ActionFields } }\n      orders(first: 5) {\n        edges { node { id buyerEmail amount currency status createdAt paidAt listingSnapshot } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Home {\n    viewer {\n      id\n      displayName\n      currency\n      stats { totalRevenue totalOrders totalListings }\n      membershipStats { mrr activeMemberships currency }\n      anyMembership: memberships(first: 1) { edges { node { id } } }\n      readiness { operational next actions { ...ActionFields } }\n      orders(first: 5) {\n        edges { node { id buyerEmail amount currency status createdAt paidAt listingSnapshot } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Dashboard($from: String!, $to: String!, $prevFrom: String!, $prevTo: String!, $interval: AnalyticsInterval!) {\n    viewer {\n      id\n      current: analytics(from: $from, to: $to, interval: $interval) {\n        currency\n        interval\n        from\n        to\n        totals { revenue orders refunds views checkouts conversionRate mrr activeMemberships }\n        series { start revenue orders views }\n        topListings(first: 5) { listingId title listing { id } revenue orders views conversionRate }\n      }\n      previous: analytics(from: $prevFrom, to: $prevTo, interval: $interval) {\n        totals { revenue orders views conversionRate }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Dashboard($from: String!, $to: String!, $prevFrom: String!, $prevTo: String!, $interval: AnalyticsInterval!) {\n    viewer {\n      id\n      current: analytics(from: $from, to: $to, interval: $interval) {\n        currency\n        interval\n        from\n        to\n        totals { revenue orders refunds views checkouts conversionRate mrr activeMemberships }\n        series { start revenue orders views }\n        topListings(first: 5) { listingId title listing { id } revenue orders views conversionRate }\n      }\n      previous: analytics(from: $prevFrom, to: $prevTo, interval: $interval) {\n        totals { revenue orders views conversionRate }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListingAnalytics($listingId: ID!, $from: String!, $to: String!, $prevFrom: String!, $prevTo: String!, $interval: AnalyticsInterval!) {\n    viewer {\n      id\n      current: analytics(from: $from, to: $to, interval: $interval, listingId: $listingId) {\n        currency\n        interval\n        from\n        to\n        totals { revenue orders refunds views checkouts conversionRate }\n        series { start revenue orders views }\n      }\n      previous: analytics(from: $prevFrom, to: $prevTo, interval: $interval, listingId: $listingId) {\n        totals { revenue orders views conversionRate }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ListingAnalytics($listingId: ID!, $from: String!, $to: String!, $prevFrom: String!, $prevTo: String!, $interval: AnalyticsInterval!) {\n    viewer {\n      id\n      current: analytics(from: $from, to: $to, interval: $interval, listingId: $listingId) {\n        currency\n        interval\n        from\n        to\n        totals { revenue orders refunds views checkouts conversionRate }\n        series { start revenue orders views }\n      }\n      previous: analytics(from: $prevFrom, to: $prevTo, interval: $interval, listingId: $listingId) {\n        totals { revenue orders views conversionRate }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartBootstrap($input: BootstrapInput!) {\n    startBootstrap(input: $input) { sessionId email status expiresAt }\n  }\n"): (typeof documents)["\n  mutation StartBootstrap($input: BootstrapInput!) {\n    startBootstrap(input: $input) { sessionId email status expiresAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation VerifyBootstrap($input: BootstrapVerifyInput!) {\n    verifyBootstrap(input: $input) { sessionId status accountId accountCreated }\n  }\n"): (typeof documents)["\n  mutation VerifyBootstrap($input: BootstrapVerifyInput!) {\n    verifyBootstrap(input: $input) { sessionId status accountId accountCreated }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CompleteBootstrap($input: BootstrapStoreInput!) {\n    completeBootstrap(input: $input) { id displayName slug url apiKey }\n  }\n"): (typeof documents)["\n  mutation CompleteBootstrap($input: BootstrapStoreInput!) {\n    completeBootstrap(input: $input) { id displayName slug url apiKey }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Processor {\n    viewer {\n      id\n      currency\n      processor { accountId status chargesEnabled payoutsEnabled testMode }\n    }\n  }\n"): (typeof documents)["\n  query Processor {\n    viewer {\n      id\n      currency\n      processor { accountId status chargesEnabled payoutsEnabled testMode }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConnectProcessor { connectProcessor { url expiresAt } }\n"): (typeof documents)["\n  mutation ConnectProcessor { connectProcessor { url expiresAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DisconnectProcessor { disconnectProcessor { accountId affectedListings } }\n"): (typeof documents)["\n  mutation DisconnectProcessor { disconnectProcessor { accountId affectedListings } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetTestKey($input: UpdateAccountInput!) {\n    updateAccount(input: $input) { id processor { status chargesEnabled payoutsEnabled testMode } }\n  }\n"): (typeof documents)["\n  mutation SetTestKey($input: UpdateAccountInput!) {\n    updateAccount(input: $input) { id processor { status chargesEnabled payoutsEnabled testMode } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Listings($first: Int, $after: String, $status: ListingStatus, $query: String) {\n    viewer {\n      id\n      listings(first: $first, after: $after, status: $status, query: $query) {\n        edges { node { id title price pricing billing interval currency status url updatedAt readiness { sellable } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Listings($first: Int, $after: String, $status: ListingStatus, $query: String) {\n    viewer {\n      id\n      listings(first: $first, after: $after, status: $status, query: $query) {\n        edges { node { id title price pricing billing interval currency status url updatedAt readiness { sellable } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ListingFields on Listing {\n    id\n    title\n    description\n    price\n    pricing\n    suggestedPrice\n    maximumPrice\n    billing\n    interval\n    trialDays\n    currency\n    slug\n    status\n    url\n    coverUrl\n    coverBlur\n    fulfillment\n    externalDelivery\n    utmSource\n    utmMedium\n    utmCampaign\n    publishedAt\n    updatedAt\n    deliverables { id type value file { name size contentType } }\n    checkoutSchema { key label kind required options }\n    license { activationLimit expiresAfterDays keyPrefix }\n    readiness { sellable next actions { ...ActionFields } }\n  }\n"): (typeof documents)["\n  fragment ListingFields on Listing {\n    id\n    title\n    description\n    price\n    pricing\n    suggestedPrice\n    maximumPrice\n    billing\n    interval\n    trialDays\n    currency\n    slug\n    status\n    url\n    coverUrl\n    coverBlur\n    fulfillment\n    externalDelivery\n    utmSource\n    utmMedium\n    utmCampaign\n    publishedAt\n    updatedAt\n    deliverables { id type value file { name size contentType } }\n    checkoutSchema { key label kind required options }\n    license { activationLimit expiresAfterDays keyPrefix }\n    readiness { sellable next actions { ...ActionFields } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Listing($id: ID!) {\n    listing(id: $id) { ...ListingFields }\n    viewer { id currency }\n  }\n"): (typeof documents)["\n  query Listing($id: ID!) {\n    listing(id: $id) { ...ListingFields }\n    viewer { id currency }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateListing($input: CreateListingInput!) {\n    createListing(input: $input) { ...ListingFields }\n  }\n"): (typeof documents)["\n  mutation CreateListing($input: CreateListingInput!) {\n    createListing(input: $input) { ...ListingFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateListing($id: ID!, $input: UpdateListingInput!) {\n    updateListing(id: $id, input: $input) { ...ListingFields }\n  }\n"): (typeof documents)["\n  mutation UpdateListing($id: ID!, $input: UpdateListingInput!) {\n    updateListing(id: $id, input: $input) { ...ListingFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PublishListing($id: ID!) { publishListing(id: $id) { ...ListingFields } }\n"): (typeof documents)["\n  mutation PublishListing($id: ID!) { publishListing(id: $id) { ...ListingFields } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteListing($id: ID!) { deleteListing(id: $id) }\n"): (typeof documents)["\n  mutation DeleteListing($id: ID!) { deleteListing(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddDeliverable($listingId: ID!, $input: DeliverableInput!) {\n    addDeliverable(listingId: $listingId, input: $input) { id type value file { name size contentType } }\n  }\n"): (typeof documents)["\n  mutation AddDeliverable($listingId: ID!, $input: DeliverableInput!) {\n    addDeliverable(listingId: $listingId, input: $input) { id type value file { name size contentType } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveDeliverable($listingId: ID!, $deliverableId: ID!) {\n    removeDeliverable(listingId: $listingId, deliverableId: $deliverableId)\n  }\n"): (typeof documents)["\n  mutation RemoveDeliverable($listingId: ID!, $deliverableId: ID!) {\n    removeDeliverable(listingId: $listingId, deliverableId: $deliverableId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UploadFile($file: Upload!, $purpose: FilePurpose!) {\n    uploadFile(file: $file, purpose: $purpose) { token filename size contentType }\n  }\n"): (typeof documents)["\n  mutation UploadFile($file: Upload!, $purpose: FilePurpose!) {\n    uploadFile(file: $file, purpose: $purpose) { token filename size contentType }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Orders(\n    $first: Int\n    $after: String\n    $status: OrderStatus\n    $listing: ID\n    $buyerEmail: String\n    $createdAfter: Time\n    $createdBefore: Time\n    $query: String\n  ) {\n    viewer {\n      id\n      orders(\n        first: $first\n        after: $after\n        status: $status\n        listing: $listing\n        buyerEmail: $buyerEmail\n        createdAfter: $createdAfter\n        createdBefore: $createdBefore\n        query: $query\n      ) {\n        edges { node { id buyerEmail amount currency status createdAt listingSnapshot billingReason discount { code } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Orders(\n    $first: Int\n    $after: String\n    $status: OrderStatus\n    $listing: ID\n    $buyerEmail: String\n    $createdAfter: Time\n    $createdBefore: Time\n    $query: String\n  ) {\n    viewer {\n      id\n      orders(\n        first: $first\n        after: $after\n        status: $status\n        listing: $listing\n        buyerEmail: $buyerEmail\n        createdAfter: $createdAfter\n        createdBefore: $createdBefore\n        query: $query\n      ) {\n        edges { node { id buyerEmail amount currency status createdAt listingSnapshot billingReason discount { code } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment OrderFields on Order {\n    id\n    listingId\n    listingSlug\n    customerId\n    buyerEmail\n    subtotal\n    discount { id code amount }\n    amount\n    currency\n    platformFee\n    netAmount\n    contentType\n    status\n    paymentStatus\n    paymentIntentId\n    checkoutData\n    listingSnapshot\n    sellerSnapshot\n    handedOffAt\n    hasDeliverables\n    deliverables { id type value file { name size contentType } }\n    disputeStatus\n    refundAmount\n    refundedAt\n    createdAt\n    paidAt\n    fulfilledAt\n    canceledAt\n    membershipId\n    billingReason\n    membership { id status interval amount currency }\n    readiness { next actions { ...ActionFields } }\n  }\n"): (typeof documents)["\n  fragment OrderFields on Order {\n    id\n    listingId\n    listingSlug\n    customerId\n    buyerEmail\n    subtotal\n    discount { id code amount }\n    amount\n    currency\n    platformFee\n    netAmount\n    contentType\n    status\n    paymentStatus\n    paymentIntentId\n    checkoutData\n    listingSnapshot\n    sellerSnapshot\n    handedOffAt\n    hasDeliverables\n    deliverables { id type value file { name size contentType } }\n    disputeStatus\n    refundAmount\n    refundedAt\n    createdAt\n    paidAt\n    fulfilledAt\n    canceledAt\n    membershipId\n    billingReason\n    membership { id status interval amount currency }\n    readiness { next actions { ...ActionFields } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Order($id: ID!) { order(id: $id) { ...OrderFields } }\n"): (typeof documents)["\n  query Order($id: ID!) { order(id: $id) { ...OrderFields } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DiscountExists($id: ID!) { node(id: $id) { id } }\n"): (typeof documents)["\n  query DiscountExists($id: ID!) { node(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FulfillOrder($id: ID!, $input: FulfillInput) {\n    fulfillOrder(id: $id, input: $input) { ...OrderFields }\n  }\n"): (typeof documents)["\n  mutation FulfillOrder($id: ID!, $input: FulfillInput) {\n    fulfillOrder(id: $id, input: $input) { ...OrderFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RefundOrder($id: ID!) { refundOrder(id: $id) { ...OrderFields } }\n"): (typeof documents)["\n  mutation RefundOrder($id: ID!) { refundOrder(id: $id) { ...OrderFields } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeliverOrder($id: ID!) { redeliverOrder(id: $id) { orderId events endpoints } }\n"): (typeof documents)["\n  mutation RedeliverOrder($id: ID!) { redeliverOrder(id: $id) { orderId events endpoints } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateCustomerPortalLink($customerId: ID!) { createCustomerPortalLink(customerId: $customerId) { url expiresAt } }\n"): (typeof documents)["\n  mutation CreateCustomerPortalLink($customerId: ID!) { createCustomerPortalLink(customerId: $customerId) { url expiresAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Customers($first: Int, $after: String, $email: String, $query: String) {\n    viewer {\n      id\n      customers(first: $first, after: $after, email: $email, query: $query) {\n        edges { node { id email ordersCount totalSpent currency firstOrderAt lastOrderAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Customers($first: Int, $after: String, $email: String, $query: String) {\n    viewer {\n      id\n      customers(first: $first, after: $after, email: $email, query: $query) {\n        edges { node { id email ordersCount totalSpent currency firstOrderAt lastOrderAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Customer($id: ID!) {\n    customer(id: $id) { id email ordersCount totalSpent currency firstOrderAt lastOrderAt createdAt }\n  }\n"): (typeof documents)["\n  query Customer($id: ID!) {\n    customer(id: $id) { id email ordersCount totalSpent currency firstOrderAt lastOrderAt createdAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Webhooks {\n    viewer {\n      id\n      webhooks(first: 20) {\n        edges {\n          node {\n            id\n            url\n            name\n            events\n            status\n            disabledReason\n            consecutiveFailures\n            createdAt\n            deliveries(first: 10) {\n              edges {\n                node { id type status attempts lastStatusCode lastError nextAttemptAt deliveredAt failedAt createdAt }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Webhooks {\n    viewer {\n      id\n      webhooks(first: 20) {\n        edges {\n          node {\n            id\n            url\n            name\n            events\n            status\n            disabledReason\n            consecutiveFailures\n            createdAt\n            deliveries(first: 10) {\n              edges {\n                node { id type status attempts lastStatusCode lastError nextAttemptAt deliveredAt failedAt createdAt }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AgentConnections {\n    viewer {\n      id\n      agentConnections(first: 20) {\n        edges {\n          node {\n            id\n            name\n            webhookUrl\n            status\n            createdAt\n            lastUsedAt\n            deliveries(first: 10) {\n              edges {\n                node { id type status attempts lastStatusCode lastError nextAttemptAt deliveredAt failedAt createdAt }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query AgentConnections {\n    viewer {\n      id\n      agentConnections(first: 20) {\n        edges {\n          node {\n            id\n            name\n            webhookUrl\n            status\n            createdAt\n            lastUsedAt\n            deliveries(first: 10) {\n              edges {\n                node { id type status attempts lastStatusCode lastError nextAttemptAt deliveredAt failedAt createdAt }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateAgentConnection($input: CreateAgentConnectionInput!) {\n    createAgentConnection(input: $input) { id name webhookUrl status token webhookSecret }\n  }\n"): (typeof documents)["\n  mutation CreateAgentConnection($input: CreateAgentConnectionInput!) {\n    createAgentConnection(input: $input) { id name webhookUrl status token webhookSecret }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateAgentConnection($id: ID!, $input: UpdateAgentConnectionInput!) {\n    updateAgentConnection(id: $id, input: $input) { id name webhookUrl status }\n  }\n"): (typeof documents)["\n  mutation UpdateAgentConnection($id: ID!, $input: UpdateAgentConnectionInput!) {\n    updateAgentConnection(id: $id, input: $input) { id name webhookUrl status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteAgentConnection($id: ID!) { deleteAgentConnection(id: $id) }\n"): (typeof documents)["\n  mutation DeleteAgentConnection($id: ID!) { deleteAgentConnection(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateWebhook($input: CreateWebhookInput!) {\n    createWebhook(input: $input) { id url name events status secret }\n  }\n"): (typeof documents)["\n  mutation CreateWebhook($input: CreateWebhookInput!) {\n    createWebhook(input: $input) { id url name events status secret }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) {\n    updateWebhook(id: $id, input: $input) { id status disabledReason consecutiveFailures }\n  }\n"): (typeof documents)["\n  mutation UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) {\n    updateWebhook(id: $id, input: $input) { id status disabledReason consecutiveFailures }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }\n"): (typeof documents)["\n  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TestWebhook($id: ID!) { testWebhook(id: $id) { statusCode body durationMs error } }\n"): (typeof documents)["\n  mutation TestWebhook($id: ID!) { testWebhook(id: $id) { statusCode body durationMs error } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetryWebhookEvent($webhookId: ID!, $eventId: ID!) {\n    retryWebhookEvent(webhookId: $webhookId, eventId: $eventId) { id status attempts lastStatusCode lastError deliveredAt }\n  }\n"): (typeof documents)["\n  mutation RetryWebhookEvent($webhookId: ID!, $eventId: ID!) {\n    retryWebhookEvent(webhookId: $webhookId, eventId: $eventId) { id status attempts lastStatusCode lastError deliveredAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LatestEvents($last: Int!) {\n    viewer {\n      id\n      events(last: $last) {\n        edges { node { id type createdAt orderId listingId data } }\n        pageInfo { endCursor hasPreviousPage }\n      }\n    }\n  }\n"): (typeof documents)["\n  query LatestEvents($last: Int!) {\n    viewer {\n      id\n      events(last: $last) {\n        edges { node { id type createdAt orderId listingId data } }\n        pageInfo { endCursor hasPreviousPage }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription Events($after: ID) { events(after: $after) { id type createdAt orderId listingId data } }\n"): (typeof documents)["\n  subscription Events($after: ID) { events(after: $after) { id type createdAt orderId listingId data } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiKeys {\n    viewer {\n      id\n      apiKeys(first: 100) {\n        edges { node { id name scope prefix createdAt lastUsedAt expiresAt } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ApiKeys {\n    viewer {\n      id\n      apiKeys(first: 100) {\n        edges { node { id name scope prefix createdAt lastUsedAt expiresAt } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RequestLog($first: Int, $after: String, $apiKey: ID, $status: RequestStatusClass) {\n    viewer {\n      id\n      apiKeys(first: 100) { edges { node { id name prefix } } }\n      requestLog(first: $first, after: $after, apiKey: $apiKey, status: $status) {\n        edges { cursor node { apiKeyId method path operation status correlationId createdAt durationMs } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query RequestLog($first: Int, $after: String, $apiKey: ID, $status: RequestStatusClass) {\n    viewer {\n      id\n      apiKeys(first: 100) { edges { node { id name prefix } } }\n      requestLog(first: $first, after: $after, apiKey: $apiKey, status: $status) {\n        edges { cursor node { apiKeyId method path operation status correlationId createdAt durationMs } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { id name scope prefix key }\n  }\n"): (typeof documents)["\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { id name scope prefix key }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n"): (typeof documents)["\n  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DiscountFields on Discount {\n    id\n    name\n    code\n    type\n    percentOff\n    amountOff\n    listingIds\n    startsAt\n    expiresAt\n    maxRedemptions\n    maxRedemptionsPerCustomer\n    minimumAmount\n    redemptionsCount\n    status\n    shareUrl\n    createdAt\n    updatedAt\n    readiness { usable next actions { ...ActionFields } }\n  }\n"): (typeof documents)["\n  fragment DiscountFields on Discount {\n    id\n    name\n    code\n    type\n    percentOff\n    amountOff\n    listingIds\n    startsAt\n    expiresAt\n    maxRedemptions\n    maxRedemptionsPerCustomer\n    minimumAmount\n    redemptionsCount\n    status\n    shareUrl\n    createdAt\n    updatedAt\n    readiness { usable next actions { ...ActionFields } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Discounts($first: Int, $after: String, $status: DiscountStatus) {\n    viewer {\n      id\n      currency\n      discounts(first: $first, after: $after, status: $status) {\n        edges { node { ...DiscountFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Discounts($first: Int, $after: String, $status: DiscountStatus) {\n    viewer {\n      id\n      currency\n      discounts(first: $first, after: $after, status: $status) {\n        edges { node { ...DiscountFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Discount($id: ID!) {\n    discount(id: $id) { ...DiscountFields }\n    viewer { id currency }\n  }\n"): (typeof documents)["\n  query Discount($id: ID!) {\n    discount(id: $id) { ...DiscountFields }\n    viewer { id currency }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListingTitles($ids: [ID!]!) {\n    nodes(ids: $ids) { id ... on Listing { title status } }\n  }\n"): (typeof documents)["\n  query ListingTitles($ids: [ID!]!) {\n    nodes(ids: $ids) { id ... on Listing { title status } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListingChoices($after: String) {\n    viewer {\n      id\n      listings(first: 100, after: $after) {\n        edges { node { id title status } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ListingChoices($after: String) {\n    viewer {\n      id\n      listings(first: 100, after: $after) {\n        edges { node { id title status } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateDiscount($input: CreateDiscountInput!) {\n    createDiscount(input: $input) { ...DiscountFields }\n  }\n"): (typeof documents)["\n  mutation CreateDiscount($input: CreateDiscountInput!) {\n    createDiscount(input: $input) { ...DiscountFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateDiscount($id: ID!, $input: UpdateDiscountInput!) {\n    updateDiscount(id: $id, input: $input) { ...DiscountFields }\n  }\n"): (typeof documents)["\n  mutation UpdateDiscount($id: ID!, $input: UpdateDiscountInput!) {\n    updateDiscount(id: $id, input: $input) { ...DiscountFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteDiscount($id: ID!) { deleteDiscount(id: $id) }\n"): (typeof documents)["\n  mutation DeleteDiscount($id: ID!) { deleteDiscount(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Settings {\n    viewer { id email displayName gaMeasurementId notifyOrders notifyWebhooks }\n    store { id displayName bio avatarUrl slug url }\n  }\n"): (typeof documents)["\n  query Settings {\n    viewer { id email displayName gaMeasurementId notifyOrders notifyWebhooks }\n    store { id displayName bio avatarUrl slug url }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateStore($input: UpdateStoreInput!) {\n    updateStore(input: $input) { id displayName bio avatarUrl slug url }\n  }\n"): (typeof documents)["\n  mutation UpdateStore($input: UpdateStoreInput!) {\n    updateStore(input: $input) { id displayName bio avatarUrl slug url }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateAccount($input: UpdateAccountInput!) {\n    updateAccount(input: $input) { id displayName gaMeasurementId notifyOrders notifyWebhooks }\n  }\n"): (typeof documents)["\n  mutation UpdateAccount($input: UpdateAccountInput!) {\n    updateAccount(input: $input) { id displayName gaMeasurementId notifyOrders notifyWebhooks }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Billing {\n    plans { id name feeRate monthlyPrice currency }\n    viewer { id plan feeRate billingStatus subscription { plan status currentPeriodEnd cancelAt } }\n  }\n"): (typeof documents)["\n  query Billing {\n    plans { id name feeRate monthlyPrice currency }\n    viewer { id plan feeRate billingStatus subscription { plan status currentPeriodEnd cancelAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChangePlan($input: ChangePlanInput!) {\n    changePlan(input: $input) { plan status url expiresAt }\n  }\n"): (typeof documents)["\n  mutation ChangePlan($input: ChangePlanInput!) {\n    changePlan(input: $input) { plan status url expiresAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignIn($input: SignInInput!) {\n    signIn(input: $input) { expiresAt account { id email } }\n  }\n"): (typeof documents)["\n  mutation SignIn($input: SignInInput!) {\n    signIn(input: $input) { expiresAt account { id email } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignOut { signOut }\n"): (typeof documents)["\n  mutation SignOut { signOut }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment LicenseKeyFields on LicenseKey {\n    id\n    key\n    listingId\n    orderId\n    customerId\n    status\n    activationLimit\n    activationsCount\n    expiresAt\n    lastValidatedAt\n    createdAt\n    updatedAt\n  }\n"): (typeof documents)["\n  fragment LicenseKeyFields on LicenseKey {\n    id\n    key\n    listingId\n    orderId\n    customerId\n    status\n    activationLimit\n    activationsCount\n    expiresAt\n    lastValidatedAt\n    createdAt\n    updatedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LicenseKeys($first: Int, $after: String, $status: LicenseKeyStatus, $key: String, $email: String) {\n    viewer {\n      id\n      licenseKeys(first: $first, after: $after, status: $status, key: $key, email: $email) {\n        edges { node { ...LicenseKeyFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query LicenseKeys($first: Int, $after: String, $status: LicenseKeyStatus, $key: String, $email: String) {\n    viewer {\n      id\n      licenseKeys(first: $first, after: $after, status: $status, key: $key, email: $email) {\n        edges { node { ...LicenseKeyFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LicenseKey($id: ID!) {\n    licenseKey(id: $id) {\n      ...LicenseKeyFields\n      activations { id fingerprint label metadata createdAt lastSeenAt }\n    }\n  }\n"): (typeof documents)["\n  query LicenseKey($id: ID!) {\n    licenseKey(id: $id) {\n      ...LicenseKeyFields\n      activations { id fingerprint label metadata createdAt lastSeenAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LicenseKeyContext($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      id\n      ... on Order { buyerEmail }\n      ... on Listing { title }\n    }\n  }\n"): (typeof documents)["\n  query LicenseKeyContext($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      id\n      ... on Order { buyerEmail }\n      ... on Listing { title }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateLicenseKey($id: ID!, $input: UpdateLicenseKeyInput!) {\n    updateLicenseKey(id: $id, input: $input) {\n      ...LicenseKeyFields\n      activations { id fingerprint label metadata createdAt lastSeenAt }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateLicenseKey($id: ID!, $input: UpdateLicenseKeyInput!) {\n    updateLicenseKey(id: $id, input: $input) {\n      ...LicenseKeyFields\n      activations { id fingerprint label metadata createdAt lastSeenAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteLicenseActivation($licenseKeyId: ID!, $activationId: ID!) {\n    deleteLicenseActivation(licenseKeyId: $licenseKeyId, activationId: $activationId)\n  }\n"): (typeof documents)["\n  mutation DeleteLicenseActivation($licenseKeyId: ID!, $activationId: ID!) {\n    deleteLicenseActivation(licenseKeyId: $licenseKeyId, activationId: $activationId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MembershipRowFields on Membership {\n    id\n    buyerEmail\n    customerId\n    listingId\n    status\n    interval\n    amount\n    currency\n    currentPeriodEnd\n    trialEnd\n    endedAt\n    createdAt\n    listing { id title }\n  }\n"): (typeof documents)["\n  fragment MembershipRowFields on Membership {\n    id\n    buyerEmail\n    customerId\n    listingId\n    status\n    interval\n    amount\n    currency\n    currentPeriodEnd\n    trialEnd\n    endedAt\n    createdAt\n    listing { id title }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Memberships($first: Int, $after: String, $status: MembershipStatus, $buyerEmail: String, $customer: ID) {\n    viewer {\n      id\n      memberships(first: $first, after: $after, status: $status, buyerEmail: $buyerEmail, customer: $customer) {\n        edges { node { ...MembershipRowFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Memberships($first: Int, $after: String, $status: MembershipStatus, $buyerEmail: String, $customer: ID) {\n    viewer {\n      id\n      memberships(first: $first, after: $after, status: $status, buyerEmail: $buyerEmail, customer: $customer) {\n        edges { node { ...MembershipRowFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MembershipFields on Membership {\n    ...MembershipRowFields\n    currentPeriodStart\n    cancelAtPeriodEnd\n    canceledAt\n    endedReason\n    latestOrderId\n    ordersCount\n    updatedAt\n  }\n"): (typeof documents)["\n  fragment MembershipFields on Membership {\n    ...MembershipRowFields\n    currentPeriodStart\n    cancelAtPeriodEnd\n    canceledAt\n    endedReason\n    latestOrderId\n    ordersCount\n    updatedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Membership($id: ID!, $after: String) {\n    membership(id: $id) {\n      ...MembershipFields\n      orders(first: 20, after: $after) {\n        edges { node { id amount currency status billingReason createdAt paidAt discount { code } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Membership($id: ID!, $after: String) {\n    membership(id: $id) {\n      ...MembershipFields\n      orders(first: 20, after: $after) {\n        edges { node { id amount currency status billingReason createdAt paidAt discount { code } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelMembership($id: ID!, $atPeriodEnd: Boolean) {\n    cancelMembership(id: $id, atPeriodEnd: $atPeriodEnd) { ...MembershipFields }\n  }\n"): (typeof documents)["\n  mutation CancelMembership($id: ID!, $atPeriodEnd: Boolean) {\n    cancelMembership(id: $id, atPeriodEnd: $atPeriodEnd) { ...MembershipFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResumeMembership($id: ID!) {\n    resumeMembership(id: $id) { ...MembershipFields }\n  }\n"): (typeof documents)["\n  mutation ResumeMembership($id: ID!) {\n    resumeMembership(id: $id) { ...MembershipFields }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;