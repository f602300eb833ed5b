import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { getErrorMessage } from '@/lib/api-client';
import { useUpdateProduct } from '../api/update-product';
import { useUploadImage } from '../api/upload-image';
import type { Product } from '../types';

const busy = <Spinner size="sm" aria-hidden="true" className="text-current" />;

const usd = (n: number) => `USD $${n.toFixed(2)}`;

/**
 * What waits for a second admin: a package that pays more over its term than it costs is
 * published, or given more while on sale, only once another admin approves (the server
 * decides, with the shop's PACKAGE_CREDIT_MULTIPLE); the form says what these numbers pay.
 */
function SecondAdminNote({ price, dailyCredit, durationDays }: { price: string; dailyCredit: string; durationDays: number }) {
  const over = Number(dailyCredit) * durationDays;
  const paysMore = Number.isFinite(over) && over > Number(price);
  return (
    <p className="text-sm text-muted-foreground" data-testid="second-admin-note">
      {paysMore ? `At these numbers it pays ${usd(over)} over its ${durationDays}-day term for ${usd(Number(price))}. ` : ''}
      Publishing a package that pays more over its term than it costs, or lowering its price, raising its daily bonus or adding stock while it is on sale, waits
      for a second admin (Admin &gt; Approvals).
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
  const update = useUpdateProduct();
  const upload = useUploadImage();

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    upload.mutate(file, {
      onSuccess: (result) => {
        setImage(result.image);
        toast.success(result.message || 'Image uploaded');
      },
      onError: (error) => toast.error(getErrorMessage(error)),
    });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.mutate(
      { productId: product._id, name, price, image, dailyCredit, description, countInStock, loadedCountInStock: product.countInStock },
      {
        onSuccess: (saved) => {
          if (saved.pendingApproval) toast.info('Saved. The changes to the price, daily bonus or stock wait for a second admin.');
          else toast.success('Product updated');
          navigate('/admin/productlist');
        },
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  };

  return (
    <form className="grid gap-4" aria-label="Edit Product" onSubmit={submit}>
      <FormField label="Name" name="name" placeholder="Enter name" value={name} onValueChange={setName} />
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField
          label="Price"
          type="number"
          name="price"
          min="0"
          step="0.01"
          inputMode="decimal"
          value={price}
          onValueChange={setPrice}
        />
        <FormField
          label="Daily Bonus"
          type="number"
          name="dailyCredit"
          min="0"
          step="0.01"
          inputMode="decimal"
          value={dailyCredit}
          onValueChange={setDailyCredit}
        />
        <FormField
          label="Count In Stock"
          type="number"
          name="countInStock"
          min="0"
          step="1"
          inputMode="numeric"
          value={countInStock}
          onValueChange={setCountInStock}
        />
      </div>
      <div className="grid gap-2">
        <FormField label="Image" name="image" placeholder="Enter image url" value={image} onValueChange={setImage} />
        <div className="flex items-center gap-3">
          {image ? <img src={image} alt="" className="size-12 rounded-md border bg-muted object-cover" /> : null}
          <Label htmlFor={fileId} className="sr-only">
            Upload image file
          </Label>
          <Input id={fileId} type="file" accept="image/*" onChange={onFile} disabled={upload.isPending} />
          {upload.isPending ? <Spinner size="sm" label="Uploading image" /> : null}
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={descriptionId}>Description</Label>
        <Textarea
          id={descriptionId}
          name="description"
          placeholder="Enter description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <SecondAdminNote price={price} dailyCredit={dailyCredit} durationDays={product.durationDays} />
      <Button type="submit" disabled={update.isPending || upload.isPending} className="w-full sm:w-fit">
        {update.isPending ? busy : null}
        Update
      </Button>
    </form>
  );
}
