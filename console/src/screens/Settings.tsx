// Profile and store (name, bio, avatar, slug), analytics id, order alerts.
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { SettingsQuery, UpdateAccount, UpdateStore } from '../ops';
import { problemsOf, type Problem } from '../problems';
import { Link } from '../router';
import type { Uploaded } from '../upload';
import { Field, FormErrors, Loading, Notice, Page, TextArea } from '../ui';
import { FileUpload } from './Listing';

export function Settings() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: SettingsQuery });
  const [, updateStore] = useMutation(UpdateStore);
  const [, updateAccount] = useMutation(UpdateAccount);
  const [displayName, setDisplayName] = useState('');
  const [bio, setBio] = useState('');
  const [slug, setSlug] = useState('');
  const [avatar, setAvatar] = useState<Uploaded | null>(null);
  const [removeAvatar, setRemoveAvatar] = useState(false);
  const [ga, setGa] = useState('');
  const [notify, setNotify] = useState(false);
  const [notifyWebhooks, setNotifyWebhooks] = useState(true);
  const [storeProblems, setStoreProblems] = useState<Problem[]>([]);
  const [accountProblems, setAccountProblems] = useState<Problem[]>([]);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const store = data?.store;
  const viewer = data?.viewer;

  useEffect(() => {
    if (store) {
      setDisplayName(store.displayName ?? '');
      setBio(store.bio ?? '');
      setSlug(store.slug ?? '');
    }
    if (viewer) {
      setGa(viewer.gaMeasurementId ?? '');
      setNotify(viewer.notifyOrders);
      setNotifyWebhooks(viewer.notifyWebhooks);
    }
  }, [store?.id, viewer?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  async function saveStore(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setStoreProblems([]);
    setNotice('');
    const r = await updateStore({
      input: {
        displayName: displayName.trim(),
        bio: bio.trim() || null,
        slug: slug.trim() || undefined,
        ...(avatar ? { avatar: avatar.token } : removeAvatar ? { avatar: null } : {}),
      },
    });
    setBusy(false);
    if (r.error) setStoreProblems(problemsOf(r.error));
    else {
      setAvatar(null);
      setRemoveAvatar(false);
      setNotice('Profile saved.');
      refetch({ requestPolicy: 'network-only' });
    }
  }

  async function saveAccount(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setAccountProblems([]);
    setNotice('');
    const r = await updateAccount({ input: { gaMeasurementId: ga.trim() || null, notifyOrders: notify, notifyWebhooks } });
    setBusy(false);
    if (r.error) setAccountProblems(problemsOf(r.error));
    else setNotice('Settings saved.');
  }

  return (
    <Page title="Settings" actions={<Link className="button secondary" to="/settings/billing">Plan and billing</Link>}>
      <FormErrors problems={problemsOf(error)} />
      {notice && <Notice>{notice}</Notice>}
      {!data && fetching && <Loading />}
      {store && viewer && (
        <>
          <section aria-labelledby="profile">
            <h2 id="profile">Profile and store</h2>
            <p className="muted">
              Signed in as {viewer.email}.{' '}
              {store.url && (
                <>
                  Your store page: <a href={store.url}>{store.url}</a>
                </>
              )}
            </p>
            <form onSubmit={saveStore} noValidate>
              <FormErrors problems={storeProblems} shown={['display_name', 'bio', 'slug', 'avatar']} />
              <Field label="Name" param="display_name" problems={storeProblems} required maxLength={80} autoComplete="organization" value={displayName} onValue={setDisplayName} />
              <TextArea label="Bio" param="bio" problems={storeProblems} maxLength={500} value={bio} onValue={setBio} />
              <Field label="Store slug" param="slug" problems={storeProblems} maxLength={80} value={slug} onValue={setSlug} />
              {store.avatarUrl && !avatar && !removeAvatar && (
                <p>
                  <img className="avatar" src={store.avatarUrl} alt="Your avatar" width={64} height={64} />
                </p>
              )}
              <FileUpload purpose="AVATAR" accept="image/*" label="Avatar" problems={storeProblems} param="avatar" onUploaded={setAvatar} />
              {store.avatarUrl && !avatar && (
                <label className="check">
                  <input type="checkbox" checked={removeAvatar} onChange={(e) => setRemoveAvatar(e.target.checked)} /> Remove the avatar
                </label>
              )}
              <button type="submit" disabled={busy}>Save profile</button>
            </form>
          </section>
          <section aria-labelledby="account">
            <h2 id="account">Analytics and alerts</h2>
            <form onSubmit={saveAccount} noValidate>
              <FormErrors problems={accountProblems} shown={['ga_measurement_id']} />
              <Field
                label="Google Analytics measurement id"
                param="ga_measurement_id"
                problems={accountProblems}
                maxLength={12}
                placeholder="G-XXXXXXXXXX"
                hint="Put on your product and thank-you pages. Empty: none."
                value={ga}
                onValue={setGa}
              />
              <label className="check">
                <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.target.checked)} /> Email me about each paid order
              </label>
              <label className="check">
                <input type="checkbox" checked={notifyWebhooks} onChange={(e) => setNotifyWebhooks(e.target.checked)} /> Email me when a webhook endpoint fails
              </label>
              <p className="muted">
                A warning after an hour without a successful delivery, then when the endpoint is disabled or works again.
              </p>
              <button type="submit" disabled={busy}>Save settings</button>
            </form>
          </section>
        </>
      )}
    </Page>
  );
}
