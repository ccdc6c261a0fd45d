'use client'

import { BookOpen, FileUp, Globe, Link2, Type } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { NotionForm } from './add-notion-form'
import { WebPageForm, WebSiteForm } from './add-web-forms'
import { FileDropzone } from './file-dropzone'
import { TextForm } from './text-form'

/** The ways content enters a datastore: files, a web page, a web site, pasted text, Notion. */
export function AddContent({ datastoreId }: { datastoreId: string }) {
  return (
    <Card className="min-w-0 gap-4">
      <CardHeader>
        <CardTitle>
          <h2>Add content</h2>
        </CardTitle>
        <CardDescription>Everything added here is split into chunks and indexed in the background.</CardDescription>
      </CardHeader>
      <CardContent className="min-w-0">
        <Tabs defaultValue="files" className="min-w-0">
          <TabsList aria-label="Kind of content" className="w-full sm:w-fit [&_svg]:max-sm:hidden">
            <TabsTrigger value="files">
              <FileUp aria-hidden />
              Files
            </TabsTrigger>
            <TabsTrigger value="web_page">
              <Link2 aria-hidden />
              Web page
            </TabsTrigger>
            <TabsTrigger value="web_site">
              <Globe aria-hidden />
              Web site
            </TabsTrigger>
            <TabsTrigger value="text">
              <Type aria-hidden />
              Text
            </TabsTrigger>
            <TabsTrigger value="notion">
              <BookOpen aria-hidden />
              Notion
            </TabsTrigger>
          </TabsList>
          {/* forceMount keeps an upload's progress when another tab is opened */}
          <TabsContent value="files" forceMount className="data-[state=inactive]:hidden">
            <FileDropzone datastoreId={datastoreId} />
          </TabsContent>
          <TabsContent value="web_page">
            <WebPageForm datastoreId={datastoreId} />
          </TabsContent>
          <TabsContent value="web_site">
            <WebSiteForm datastoreId={datastoreId} />
          </TabsContent>
          <TabsContent value="text">
            <TextForm datastoreId={datastoreId} />
          </TabsContent>
          <TabsContent value="notion">
            <NotionForm datastoreId={datastoreId} />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  )
}
