import { useId, useState, type FormEvent } from 'react';
import { Plus } from 'lucide-react';
import { toast } from '@/lib/toast';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { t } from '@/i18n/i18n';
import { useCreateWebhook } from '../api/create-webhook';

/** An example address, the same in every language. */
const URL_EXAMPLE = 'https://example.com/webhooks/shop';

function EventCheckbox({ type, checked, onChange }: { type: WebhookEventType; checked: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(value) => onChange(value === true)} />
      <Label htmlFor={id} className="font-mono text-xs font-normal">
        {type}
      </Label>
    </div>
  );
}

/** Adds an endpoint: its URL, a description and the event types it receives (all by default). */
export function WebhookForm({ onCreated }: { onCreated: (id: string) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const create = useCreateWebhook();

  const toggle = (type: WebhookEventType, on: boolean) =>
    // Kept in the contract's order, whatever order they were ticked in.
    setEvents((current) => WEBHOOK_EVENT_TYPES.filter((each) => (each === type ? on : current.includes(each))));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = description.trim();
    create.mutate(
      { url: url.trim(), ...(trimmed ? { description: trimmed } : {}), events },
      {
        onSuccess: (endpoint) => {
          toast.success(t('webhooks.form.added'));
          setUrl('');
          setDescription('');
          setEvents([...WEBHOOK_EVENT_TYPES]);
          onCreated(endpoint._id);
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t('webhooks.form.title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" aria-label={t('webhooks.form.title')} onSubmit={submit}>
          <div className="grid gap-4 md:grid-cols-2">
            <FormField
              label={t('webhooks.form.url')}
              type="url"
              name="url"
              required
              placeholder={URL_EXAMPLE}
              autoComplete="off"
              spellCheck={false}
              value={url}
              onValueChange={setUrl}
            />
            <FormField
              label={t('webhooks.form.description')}
              name="description"
              maxLength={200}
              placeholder={t('webhooks.form.descriptionPlaceholder')}
              value={description}
              onValueChange={setDescription}
            />
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">{t('webhooks.form.events')}</legend>
            <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <EventCheckbox key={type} type={type} checked={events.includes(type)} onChange={(on) => toggle(type, on)} />
              ))}
            </div>
            {events.length === 0 ? <p className="text-xs text-destructive">{t('webhooks.form.noEvents')}</p> : null}
          </fieldset>
          {create.error ? <ErrorAlert error={create.error} /> : null}
          <Button
            type="submit"
            className="w-full sm:w-fit"
            pending={create.isPending}
            icon={<Plus aria-hidden="true" />}
            disabled={create.isPending || events.length === 0}
          >
            {t('webhooks.form.submit')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
