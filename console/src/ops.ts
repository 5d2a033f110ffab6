// Every GraphQL operation of the console, typed by graphql-codegen
// (src/gql is generated from graph/schema/*.graphqls: make generate).
import { graphql } from './gql';

export const ActionFields = graphql(`
  fragment ActionFields on Action {
    code
    kind
    priority
    message
    resolve { method endpoint url params inputs { name } graphql { query variables } }
  }
`);

export const ViewerQuery = graphql(`
  query Viewer {
    viewer { id email displayName plan currency processor { status chargesEnabled testMode } }
  }
`);

export const HomeQuery = graphql(`
  query Home {
    viewer {
      id
      displayName
      currency
      stats { totalRevenue totalOrders totalListings }
      membershipStats { mrr activeMemberships currency }
      anyMembership: memberships(first: 1) { edges { node { id } } }
      readiness { operational next actions { ...ActionFields } }
      orders(first: 5) {
        edges { node { id buyerEmail amount currency status createdAt paidAt listingSnapshot } }
      }
    }
  }
`);

// The dashboard (CONTRACT §15, §23): a range's series, totals and top
// listings, and the previous period of the same length for the changes.
export const DashboardQuery = graphql(`
  query Dashboard($from: String!, $to: String!, $prevFrom: String!, $prevTo: String!, $interval: AnalyticsInterval!) {
    viewer {
      id
      current: analytics(from: $from, to: $to, interval: $interval) {
        currency
        interval
        from
        to
        totals { revenue orders refunds views checkouts conversionRate mrr activeMemberships }
        series { start revenue orders views }
        topListings(first: 5) { listingId title listing { id } revenue orders views conversionRate }
      }
      previous: analytics(from: $prevFrom, to: $prevTo, interval: $interval) {
        totals { revenue orders views conversionRate }
      }
    }
  }
`);

// One listing's series (the listing screen).
export const ListingAnalyticsQuery = graphql(`
  query ListingAnalytics($listingId: ID!, $from: String!, $to: String!, $prevFrom: String!, $prevTo: String!, $interval: AnalyticsInterval!) {
    viewer {
      id
      current: analytics(from: $from, to: $to, interval: $interval, listingId: $listingId) {
        currency
        interval
        from
        to
        totals { revenue orders refunds views checkouts conversionRate }
        series { start revenue orders views }
      }
      previous: analytics(from: $prevFrom, to: $prevTo, interval: $interval, listingId: $listingId) {
        totals { revenue orders views conversionRate }
      }
    }
  }
`);

export const StartBootstrap = graphql(`
  mutation StartBootstrap($input: BootstrapInput!) {
    startBootstrap(input: $input) { sessionId email status expiresAt }
  }
`);

export const VerifyBootstrap = graphql(`
  mutation VerifyBootstrap($input: BootstrapVerifyInput!) {
    verifyBootstrap(input: $input) { sessionId status accountId accountCreated }
  }
`);

export const CompleteBootstrap = graphql(`
  mutation CompleteBootstrap($input: BootstrapStoreInput!) {
    completeBootstrap(input: $input) { id displayName slug url apiKey }
  }
`);

export const ProcessorQuery = graphql(`
  query Processor {
    viewer {
      id
      currency
      processor { accountId status chargesEnabled payoutsEnabled testMode }
    }
  }
`);

export const ConnectProcessor = graphql(`
  mutation ConnectProcessor { connectProcessor { url expiresAt } }
`);

export const DisconnectProcessor = graphql(`
  mutation DisconnectProcessor { disconnectProcessor { accountId affectedListings } }
`);

export const SetTestKey = graphql(`
  mutation SetTestKey($input: UpdateAccountInput!) {
    updateAccount(input: $input) { id processor { status chargesEnabled payoutsEnabled testMode } }
  }
`);

export const ListingsQuery = graphql(`
  query Listings($first: Int, $after: String, $status: ListingStatus, $query: String) {
    viewer {
      id
      listings(first: $first, after: $after, status: $status, query: $query) {
        edges { node { id title price pricing billing interval currency status url updatedAt readiness { sellable } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const ListingFields = graphql(`
  fragment ListingFields on Listing {
    id
    title
    description
    price
    pricing
    suggestedPrice
    maximumPrice
    billing
    interval
    trialDays
    currency
    slug
    status
    url
    coverUrl
    coverBlur
    fulfillment
    externalDelivery
    utmSource
    utmMedium
    utmCampaign
    publishedAt
    updatedAt
    deliverables { id type value file { name size contentType } }
    checkoutSchema { key label kind required options }
    license { activationLimit expiresAfterDays keyPrefix }
    readiness { sellable next actions { ...ActionFields } }
  }
`);

export const ListingQuery = graphql(`
  query Listing($id: ID!) {
    listing(id: $id) { ...ListingFields }
    viewer { id currency }
  }
`);

export const CreateListing = graphql(`
  mutation CreateListing($input: CreateListingInput!) {
    createListing(input: $input) { ...ListingFields }
  }
`);

export const UpdateListing = graphql(`
  mutation UpdateListing($id: ID!, $input: UpdateListingInput!) {
    updateListing(id: $id, input: $input) { ...ListingFields }
  }
`);

export const PublishListing = graphql(`
  mutation PublishListing($id: ID!) { publishListing(id: $id) { ...ListingFields } }
`);

export const DeleteListing = graphql(`
  mutation DeleteListing($id: ID!) { deleteListing(id: $id) }
`);

export const AddDeliverable = graphql(`
  mutation AddDeliverable($listingId: ID!, $input: DeliverableInput!) {
    addDeliverable(listingId: $listingId, input: $input) { id type value file { name size contentType } }
  }
`);

export const RemoveDeliverable = graphql(`
  mutation RemoveDeliverable($listingId: ID!, $deliverableId: ID!) {
    removeDeliverable(listingId: $listingId, deliverableId: $deliverableId)
  }
`);

export const UploadFile = graphql(`
  mutation UploadFile($file: Upload!, $purpose: FilePurpose!) {
    uploadFile(file: $file, purpose: $purpose) { token filename size contentType }
  }
`);

export const OrdersQuery = graphql(`
  query Orders(
    $first: Int
    $after: String
    $status: OrderStatus
    $listing: ID
    $buyerEmail: String
    $createdAfter: Time
    $createdBefore: Time
    $query: String
  ) {
    viewer {
      id
      orders(
        first: $first
        after: $after
        status: $status
        listing: $listing
        buyerEmail: $buyerEmail
        createdAfter: $createdAfter
        createdBefore: $createdBefore
        query: $query
      ) {
        edges { node { id buyerEmail amount currency status createdAt listingSnapshot billingReason discount { code } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const OrderFields = graphql(`
  fragment OrderFields on Order {
    id
    listingId
    listingSlug
    customerId
    buyerEmail
    subtotal
    discount { id code amount }
    amount
    currency
    platformFee
    netAmount
    contentType
    status
    paymentStatus
    paymentIntentId
    checkoutData
    listingSnapshot
    sellerSnapshot
    handedOffAt
    hasDeliverables
    deliverables { id type value file { name size contentType } }
    disputeStatus
    refundAmount
    refundedAt
    createdAt
    paidAt
    fulfilledAt
    canceledAt
    membershipId
    billingReason
    membership { id status interval amount currency }
    readiness { next actions { ...ActionFields } }
  }
`);

export const OrderQuery = graphql(`
  query Order($id: ID!) { order(id: $id) { ...OrderFields } }
`);

// Whether an order's discount still exists (node is null once deleted).
export const DiscountExistsQuery = graphql(`
  query DiscountExists($id: ID!) { node(id: $id) { id } }
`);

export const FulfillOrder = graphql(`
  mutation FulfillOrder($id: ID!, $input: FulfillInput) {
    fulfillOrder(id: $id, input: $input) { ...OrderFields }
  }
`);

export const RefundOrder = graphql(`
  mutation RefundOrder($id: ID!) { refundOrder(id: $id) { ...OrderFields } }
`);

export const RedeliverOrder = graphql(`
  mutation RedeliverOrder($id: ID!) { redeliverOrder(id: $id) { orderId events endpoints } }
`);

export const CreateCustomerPortalLink = graphql(`
  mutation CreateCustomerPortalLink($customerId: ID!) { createCustomerPortalLink(customerId: $customerId) { url expiresAt } }
`);

export const CustomersQuery = graphql(`
  query Customers($first: Int, $after: String, $email: String, $query: String) {
    viewer {
      id
      customers(first: $first, after: $after, email: $email, query: $query) {
        edges { node { id email ordersCount totalSpent currency firstOrderAt lastOrderAt } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const CustomerQuery = graphql(`
  query Customer($id: ID!) {
    customer(id: $id) { id email ordersCount totalSpent currency firstOrderAt lastOrderAt createdAt }
  }
`);

export const WebhooksQuery = graphql(`
  query Webhooks {
    viewer {
      id
      webhooks(first: 20) {
        edges {
          node {
            id
            url
            name
            events
            status
            disabledReason
            consecutiveFailures
            createdAt
            deliveries(first: 10) {
              edges {
                node { id type status attempts lastStatusCode lastError nextAttemptAt deliveredAt failedAt createdAt }
              }
            }
          }
        }
      }
    }
  }
`);

export const AgentConnectionsQuery = graphql(`
  query AgentConnections {
    viewer {
      id
      agentConnections(first: 20) {
        edges {
          node {
            id
            name
            webhookUrl
            status
            createdAt
            lastUsedAt
            deliveries(first: 10) {
              edges {
                node { id type status attempts lastStatusCode lastError nextAttemptAt deliveredAt failedAt createdAt }
              }
            }
          }
        }
      }
    }
  }
`);

export const CreateAgentConnection = graphql(`
  mutation CreateAgentConnection($input: CreateAgentConnectionInput!) {
    createAgentConnection(input: $input) { id name webhookUrl status token webhookSecret }
  }
`);

export const UpdateAgentConnection = graphql(`
  mutation UpdateAgentConnection($id: ID!, $input: UpdateAgentConnectionInput!) {
    updateAgentConnection(id: $id, input: $input) { id name webhookUrl status }
  }
`);

export const DeleteAgentConnection = graphql(`
  mutation DeleteAgentConnection($id: ID!) { deleteAgentConnection(id: $id) }
`);

export const CreateWebhook = graphql(`
  mutation CreateWebhook($input: CreateWebhookInput!) {
    createWebhook(input: $input) { id url name events status secret }
  }
`);

export const UpdateWebhook = graphql(`
  mutation UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) {
    updateWebhook(id: $id, input: $input) { id status disabledReason consecutiveFailures }
  }
`);

export const DeleteWebhook = graphql(`
  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }
`);

export const TestWebhook = graphql(`
  mutation TestWebhook($id: ID!) { testWebhook(id: $id) { statusCode body durationMs error } }
`);

export const RetryWebhookEvent = graphql(`
  mutation RetryWebhookEvent($webhookId: ID!, $eventId: ID!) {
    retryWebhookEvent(webhookId: $webhookId, eventId: $eventId) { id status attempts lastStatusCode lastError deliveredAt }
  }
`);

export const LatestEventsQuery = graphql(`
  query LatestEvents($last: Int!) {
    viewer {
      id
      events(last: $last) {
        edges { node { id type createdAt orderId listingId data } }
        pageInfo { endCursor hasPreviousPage }
      }
    }
  }
`);

export const EventsSubscription = graphql(`
  subscription Events($after: ID) { events(after: $after) { id type createdAt orderId listingId data } }
`);

export const ApiKeysQuery = graphql(`
  query ApiKeys {
    viewer {
      id
      apiKeys(first: 100) {
        edges { node { id name scope prefix createdAt lastUsedAt expiresAt } }
      }
    }
  }
`);

// The request log (issue 29): the account's keys' recent requests, newest
// first, by key and status class; the keys name the filter's options.
export const RequestLogQuery = graphql(`
  query RequestLog($first: Int, $after: String, $apiKey: ID, $status: RequestStatusClass) {
    viewer {
      id
      apiKeys(first: 100) { edges { node { id name prefix } } }
      requestLog(first: $first, after: $after, apiKey: $apiKey, status: $status) {
        edges { cursor node { apiKeyId method path operation status correlationId createdAt durationMs } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const CreateApiKey = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { id name scope prefix key }
  }
`);

export const DeleteApiKey = graphql(`
  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }
`);

export const DiscountFields = graphql(`
  fragment DiscountFields on Discount {
    id
    name
    code
    type
    percentOff
    amountOff
    listingIds
    startsAt
    expiresAt
    maxRedemptions
    maxRedemptionsPerCustomer
    minimumAmount
    redemptionsCount
    status
    shareUrl
    createdAt
    updatedAt
    readiness { usable next actions { ...ActionFields } }
  }
`);

export const DiscountsQuery = graphql(`
  query Discounts($first: Int, $after: String, $status: DiscountStatus) {
    viewer {
      id
      currency
      discounts(first: $first, after: $after, status: $status) {
        edges { node { ...DiscountFields } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const DiscountQuery = graphql(`
  query Discount($id: ID!) {
    discount(id: $id) { ...DiscountFields }
    viewer { id currency }
  }
`);

// The titles of the listings discounts name (null: deleted since).
export const ListingTitlesQuery = graphql(`
  query ListingTitles($ids: [ID!]!) {
    nodes(ids: $ids) { id ... on Listing { title status } }
  }
`);

// The listing picker's choices: the account's listings by title.
export const ListingChoicesQuery = graphql(`
  query ListingChoices($after: String) {
    viewer {
      id
      listings(first: 100, after: $after) {
        edges { node { id title status } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const CreateDiscount = graphql(`
  mutation CreateDiscount($input: CreateDiscountInput!) {
    createDiscount(input: $input) { ...DiscountFields }
  }
`);

export const UpdateDiscount = graphql(`
  mutation UpdateDiscount($id: ID!, $input: UpdateDiscountInput!) {
    updateDiscount(id: $id, input: $input) { ...DiscountFields }
  }
`);

export const DeleteDiscount = graphql(`
  mutation DeleteDiscount($id: ID!) { deleteDiscount(id: $id) }
`);

export const SettingsQuery = graphql(`
  query Settings {
    viewer { id email displayName gaMeasurementId notifyOrders notifyWebhooks }
    store { id displayName bio avatarUrl slug url }
  }
`);

export const UpdateStore = graphql(`
  mutation UpdateStore($input: UpdateStoreInput!) {
    updateStore(input: $input) { id displayName bio avatarUrl slug url }
  }
`);

export const UpdateAccount = graphql(`
  mutation UpdateAccount($input: UpdateAccountInput!) {
    updateAccount(input: $input) { id displayName gaMeasurementId notifyOrders notifyWebhooks }
  }
`);

export const BillingQuery = graphql(`
  query Billing {
    plans { id name feeRate monthlyPrice currency }
    viewer { id plan feeRate billingStatus subscription { plan status currentPeriodEnd cancelAt } }
  }
`);

export const ChangePlan = graphql(`
  mutation ChangePlan($input: ChangePlanInput!) {
    changePlan(input: $input) { plan status url expiresAt }
  }
`);

export const SignIn = graphql(`
  mutation SignIn($input: SignInInput!) {
    signIn(input: $input) { expiresAt account { id email } }
  }
`);

export const SignOut = graphql(`
  mutation SignOut { signOut }
`);

export const LicenseKeyFields = graphql(`
  fragment LicenseKeyFields on LicenseKey {
    id
    key
    listingId
    orderId
    customerId
    status
    activationLimit
    activationsCount
    expiresAt
    lastValidatedAt
    createdAt
    updatedAt
  }
`);

export const LicenseKeysQuery = graphql(`
  query LicenseKeys($first: Int, $after: String, $status: LicenseKeyStatus, $key: String, $email: String) {
    viewer {
      id
      licenseKeys(first: $first, after: $after, status: $status, key: $key, email: $email) {
        edges { node { ...LicenseKeyFields } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const LicenseKeyQuery = graphql(`
  query LicenseKey($id: ID!) {
    licenseKey(id: $id) {
      ...LicenseKeyFields
      activations { id fingerprint label metadata createdAt lastSeenAt }
    }
  }
`);

// The buyer and listing of license keys: their orders' emails, their
// listings' titles (null: deleted since).
export const LicenseKeyContextQuery = graphql(`
  query LicenseKeyContext($ids: [ID!]!) {
    nodes(ids: $ids) {
      id
      ... on Order { buyerEmail }
      ... on Listing { title }
    }
  }
`);

export const UpdateLicenseKey = graphql(`
  mutation UpdateLicenseKey($id: ID!, $input: UpdateLicenseKeyInput!) {
    updateLicenseKey(id: $id, input: $input) {
      ...LicenseKeyFields
      activations { id fingerprint label metadata createdAt lastSeenAt }
    }
  }
`);

export const DeleteLicenseActivation = graphql(`
  mutation DeleteLicenseActivation($licenseKeyId: ID!, $activationId: ID!) {
    deleteLicenseActivation(licenseKeyId: $licenseKeyId, activationId: $activationId)
  }
`);

// Memberships (CONTRACT §26): the list with its filters, one membership
// with its orders, cancel and resume.
export const MembershipRowFields = graphql(`
  fragment MembershipRowFields on Membership {
    id
    buyerEmail
    customerId
    listingId
    status
    interval
    amount
    currency
    currentPeriodEnd
    trialEnd
    endedAt
    createdAt
    listing { id title }
  }
`);

export const MembershipsQuery = graphql(`
  query Memberships($first: Int, $after: String, $status: MembershipStatus, $buyerEmail: String, $customer: ID) {
    viewer {
      id
      memberships(first: $first, after: $after, status: $status, buyerEmail: $buyerEmail, customer: $customer) {
        edges { node { ...MembershipRowFields } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const MembershipFields = graphql(`
  fragment MembershipFields on Membership {
    ...MembershipRowFields
    currentPeriodStart
    cancelAtPeriodEnd
    canceledAt
    endedReason
    latestOrderId
    ordersCount
    updatedAt
  }
`);

export const MembershipQuery = graphql(`
  query Membership($id: ID!, $after: String) {
    membership(id: $id) {
      ...MembershipFields
      orders(first: 20, after: $after) {
        edges { node { id amount currency status billingReason createdAt paidAt discount { code } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const CancelMembership = graphql(`
  mutation CancelMembership($id: ID!, $atPeriodEnd: Boolean) {
    cancelMembership(id: $id, atPeriodEnd: $atPeriodEnd) { ...MembershipFields }
  }
`);

export const ResumeMembership = graphql(`
  mutation ResumeMembership($id: ID!) {
    resumeMembership(id: $id) { ...MembershipFields }
  }
`);
