import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  AppProvider as PolarisAppProvider,
  Button,
  Card,
  FormLayout,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import polarisTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { useState } from "react";
import { LoginErrorType } from "@shopify/shopify-app-remix/server";
import { login } from "../../shopify.server";
import { parseShopDomain } from "../../shopify/shop-domain";
import { loginErrorMessage, type LoginErrorMessage } from "./error.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const shop = new URL(request.url).searchParams.get("shop");
  return shop === null ? data<{ errors: LoginErrorMessage }>({ errors: {} }) : logIn(request, shop);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  return logIn(request, (await request.formData()).get("shop"));
};

/**
 * The library's login, given only a shop domain this app checked itself: what the visitor typed
 * never reaches a redirect, a header or a log line unless it is a shop (a 10 MB one once did).
 */
async function logIn(request: Request, typed: FormDataEntryValue | null) {
  const refused = (shop: LoginErrorType) =>
    data<{ errors: LoginErrorMessage }>({ errors: loginErrorMessage({ shop }) }, { status: 400 });
  if (typeof typed !== "string" || typed.trim() === "") return refused(LoginErrorType.MissingShop);
  const shop = parseShopDomain(typed);
  if (!shop) return refused(LoginErrorType.InvalidShop);
  const checked = new URL("/auth/login", request.url);
  checked.searchParams.set("shop", shop);
  return data<{ errors: LoginErrorMessage }>({
    errors: loginErrorMessage(await login(new Request(checked))),
  });
}

/** Shown outside the Shopify admin only (installing by typing a shop domain). */
export default function Auth() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const { errors } = actionData ?? loaderData;

  return (
    <PolarisAppProvider i18n={polarisTranslations}>
      <Page>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text variant="headingMd" as="h2">
                Log in
              </Text>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit>Log in</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </PolarisAppProvider>
  );
}
