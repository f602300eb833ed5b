import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { PACKAGE_TERM_DAYS, packageTermDays, termCredit, toCents, usdAmount } from '@shop/core/contract';
import { FormField } from '@/components/form-field';
import { SecondAdminReason } from '@/components/second-admin-reason';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { formatUsd } from '@/lib/format';
import { useUpdateProduct } from '../api/update-product';
import { useUploadImage } from '../api/upload-image';
import type { Product } from '../types';

const busy = <Spinner size="sm" aria-hidden="true" className="text-current" />;

/** The form's numbers as the api reads them (the contract's rules), or the first problem in the words the api would use. */
type Terms = { ok: true; price: string; dailyCredit: string; days: number } | { ok: false; problem: string };

function readTerms(price: string, dailyCredit: string, term: string): Terms {
  const days = packageTermDays.safeParse(term);
  // The contract's rule (its message, in English) after the field's name.
  const problem = (field: string, message: string | undefined) => (message ? t('products.form.problem', { field, message }) : t('products.form.notValid', { field }));
  if (!days.success) return { ok: false, problem: problem(t('products.form.term'), days.error.issues[0]?.message) };
  const credit = usdAmount.safeParse(dailyCredit);
  if (!credit.success) return { ok: false, problem: problem(t('products.form.dailyBonus'), credit.error.issues[0]?.message) };
  const cost = usdAmount.safeParse(price);
  if (!cost.success) return { ok: false, problem: problem(t('products.form.price'), cost.error.issues[0]?.message) };
  return { ok: true, price: cost.data, dailyCredit: credit.data, days: days.data };
}

/** What the package pays in all: 'USD $1.50 a day for 30 days: USD $45.00 in all' (exact cents). */
function PackagePays({ id, terms }: { id: string; terms: Terms }) {
  return (
    <p id={id} aria-live="polite" data-testid="package-pays" className={terms.ok ? 'text-sm font-medium sm:col-span-2' : 'text-sm font-medium text-destructive sm:col-span-2'}>
      {terms.ok
        ? t('products.form.pays', { count: terms.days, daily: formatUsd(terms.dailyCredit), total: formatUsd(termCredit(terms.dailyCredit, terms.days)) })
        : terms.problem}
    </p>
  );
}

/**
 * What waits for a second admin: a package that pays more over its term than it costs is
 * published, or given more while on sale, only once another admin approves (the server
 * decides, with the shop's PACKAGE_CREDIT_MULTIPLE); the form says what these numbers pay.
 */
function SecondAdminNote({ terms }: { terms: Terms }) {
  const over = terms.ok ? termCredit(terms.dailyCredit, terms.days) : undefined;
  const paysMore = terms.ok && over !== undefined && toCents(over) > toCents(terms.price);
  return (
    <p className="text-sm text-muted-foreground" data-testid="second-admin-note">
      {paysMore ? `${t('products.form.paysMore', { pays: formatUsd(over), count: terms.days, price: formatUsd(terms.price) })} ` : ''}
      {t('products.form.secondAdmin')}
    </p>
  );
}

/** The admin's package editor; starts from the stored package and saves all fields at once. */
export function ProductForm({ product }: { product: Product }) {
  const navigate = useNavigate();
  const fileId = useId();
  const descriptionId = useId();
  const [name, setName] = useState(product.name);
  const [price, setPrice] = useState(String(product.price));
  const [image, setImage] = useState(product.image);
  const [dailyCredit, setDailyCredit] = useState(String(product.dailyCredit));
  const [countInStock, setCountInStock] = useState(String(product.countInStock));
  const [description, setDescription] = useState(product.description);
  const [term, setTerm] = useState(String(product.durationDays));
  const [reason, setReason] = useState('');
  const paysId = useId();
  const terms = readTerms(price, dailyCredit, term);
  const update = useUpdateProduct();
  const upload = useUploadImage();

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    upload.mutate(file, {
      onSuccess: (result) => {
        setImage(result.image);
        toast.success(t('products.form.imageUploaded'));
      },
      onError: (error) => toast.error(getErrorMessage(error)),
    });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.mutate(
      {
        productId: product._id, name, price, image, dailyCredit, description, countInStock, loadedCountInStock: product.countInStock, durationDays: term,
        ...(reason.trim() ? { approvalReason: reason } : {}),
      },
      {
        onSuccess: (saved) => {
          if (saved.pendingApproval) toast.info(t('products.form.savedWaits'));
          else toast.success(t('products.form.updated'));
          navigate('/admin/productlist');
        },
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  };

  return (
    <form className="grid gap-4" aria-label={t('products.edit.heading')} onSubmit={submit}>
      <FormField label={t('products.form.name')} name="name" placeholder={t('products.form.namePlaceholder')} value={name} onValueChange={setName} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label={t('products.form.price')}
          type="number"
          name="price"
          min="0"
          step="0.01"
          inputMode="decimal"
          value={price}
          onValueChange={setPrice}
        />
        <FormField
          label={t('products.form.countInStock')}
          type="number"
          name="countInStock"
          min="0"
          step="1"
          inputMode="numeric"
          value={countInStock}
          onValueChange={setCountInStock}
        />
        <FormField
          label={t('products.form.dailyBonus')}
          type="number"
          name="dailyCredit"
          min="0"
          step="0.01"
          inputMode="decimal"
          value={dailyCredit}
          onValueChange={setDailyCredit}
          aria-describedby={paysId}
        />
        <FormField
          label={t('products.form.term')}
          type="number"
          name="durationDays"
          required
          min={PACKAGE_TERM_DAYS.min}
          max={PACKAGE_TERM_DAYS.max}
          step="1"
          inputMode="numeric"
          value={term}
          onValueChange={setTerm}
          aria-describedby={paysId}
        />
        <PackagePays id={paysId} terms={terms} />
      </div>
      <div className="grid gap-2">
        <FormField label={t('products.form.image')} name="image" placeholder={t('products.form.imagePlaceholder')} value={image} onValueChange={setImage} />
        <div className="flex items-center gap-3">
          {image ? <img src={image} alt="" className="size-12 rounded-md border bg-muted object-cover" /> : null}
          <Label htmlFor={fileId} className="sr-only">
            {t('products.form.uploadFile')}
          </Label>
          <Input id={fileId} type="file" accept="image/*" onChange={onFile} disabled={upload.isPending} />
          {upload.isPending ? <Spinner size="sm" label={t('products.form.uploading')} /> : null}
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={descriptionId}>{t('products.form.description')}</Label>
        <Textarea
          id={descriptionId}
          name="description"
          placeholder={t('products.form.descriptionPlaceholder')}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <SecondAdminNote terms={terms} />
      <SecondAdminReason value={reason} onValueChange={setReason} />
      <Button type="submit" disabled={update.isPending || upload.isPending} className="w-full sm:w-fit">
        {update.isPending ? busy : null}
        {t('products.form.update')}
      </Button>

    </form>
  );
}
